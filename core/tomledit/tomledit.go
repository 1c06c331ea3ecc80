// Package tomledit changes whole tables of a TOML file (Codex's
// config.toml) and keeps every other byte: keys, tables, order, comments
// and blank lines stay as the user wrote them. It does what charter needs
// and no more: find a table with its sub-tables, replace or remove it,
// append a new one. The file is checked by a full TOML parser first, so a
// file the agent could not read either is refused, never rewritten.
package tomledit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/agentkit/charter/core/errcode"
)

// ParseError is a file charter cannot edit: not valid TOML.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("line %d: %s (fix the file by hand; charter will not overwrite it)", e.Line, e.Msg)
}

// Code is the stable machine name: an agent's own settings file (Codex's
// config.toml) that charter cannot read.
func (e *ParseError) Code() string { return errcode.MalformedAgentSettings }

// Doc is one version of a file's bytes with its tables found. Each edit
// returns new bytes and leaves the Doc as it was.
type Doc struct {
	Data []byte
	// Values is the file as the TOML parser reads it.
	Values map[string]any
	tables []table
}

// table is one [header] (or [[header]]) and the lines that belong to it.
type table struct {
	key   []string
	array bool
	start int // the header line's first byte
	end   int // after the newline of its last key line (or of the header)
}

// Open parses data. A file that is not TOML is a *ParseError naming the line.
func Open(data []byte) (*Doc, error) {
	d := &Doc{Data: data, Values: map[string]any{}}
	if _, err := toml.Decode(string(data), &d.Values); err != nil {
		line := 1
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line = pe.Position.Line
		}
		return nil, &ParseError{Line: line, Msg: "this is not valid TOML"}
	}
	d.tables = scan(data)
	return d, nil
}

// Lookup is the value at keys as the parser reads it, nil when absent.
func (d *Doc) Lookup(keys ...string) any {
	var v any = d.Values
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		if v, ok = m[k]; !ok {
			return nil
		}
	}
	return v
}

// Block is the byte range of the table at key written as a [header] of its
// own, with the sub-tables that follow it; ok false when the file has no
// such header (the table is absent, or written inline or as dotted keys).
func (d *Doc) Block(key ...string) (start, end int, ok bool) {
	for i, t := range d.tables {
		if t.array || !slices.Equal(t.key, key) {
			continue
		}
		end = t.end
		for _, u := range d.tables[i+1:] {
			if len(u.key) <= len(key) || !slices.Equal(u.key[:len(key)], key) {
				break
			}
			end = u.end
		}
		return t.start, end, true
	}
	return 0, 0, false
}

// Replace is the file with [start, end) replaced by text.
func (d *Doc) Replace(start, end int, text string) []byte {
	return slices.Concat(d.Data[:start], []byte(text), d.Data[end:])
}

// Remove is the file without [start, end) and the one blank line before
// it that Append put there.
func (d *Doc) Remove(start, end int) []byte {
	if start >= 2 && string(d.Data[start-2:start]) == "\n\n" {
		start--
	}
	return slices.Concat(d.Data[:start], d.Data[end:])
}

// Append is the file with text as a table of its own at its end, one blank
// line before it.
func (d *Doc) Append(text string) []byte {
	data := d.Data
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return []byte(text)
	case !bytes.HasSuffix(data, []byte("\n")):
		data = append(slices.Clip(data), '\n')
	}
	return slices.Concat(data, []byte("\n"+text))
}

// KV is one key and value of a new table: a string, a list of strings, or
// a map of strings (written inline, keys sorted).
type KV struct {
	Key string
	Val any
}

// Table is the text of a [key] table holding kvs, in their order.
func Table(key []string, kvs []KV) string {
	var b strings.Builder
	b.WriteString("[")
	for i, k := range key {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(Key(k))
	}
	b.WriteString("]\n")
	for _, kv := range kvs {
		b.WriteString(Key(kv.Key) + " = " + value(kv.Val) + "\n")
	}
	return b.String()
}

// Key is k as a TOML key: bare when it can be, else quoted.
func Key(k string) string {
	if k != "" && strings.Trim(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == "" {
		return k
	}
	return quote(k)
}

func value(v any) string {
	switch v := v.(type) {
	case string:
		return quote(v)
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			parts[i] = quote(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]string:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = Key(k) + " = " + quote(v[k])
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	panic(fmt.Sprintf("tomledit: no TOML form for %T", v))
}

// quote is s as a TOML basic string: JSON's escapes are TOML's, except
// that TOML has no \/ and wants \u for control characters, as JSON gives.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string: cannot fail
	return strings.TrimSuffix(b.String(), "\n")
}
