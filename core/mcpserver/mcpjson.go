package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MCPJSONError is a .mcp.json that charter cannot edit safely. Nothing is
// written: guessing could lose the user's other servers.
type MCPJSONError struct {
	Line int
	Msg  string
}

func (e *MCPJSONError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s (fix the file by hand; charter will not overwrite it)", e.Line, e.Msg)
	}
	return e.Msg + " (fix the file by hand; charter will not overwrite it)"
}

// Code is the error's code in JSON error bodies.
func (e *MCPJSONError) Code() string { return "malformed_mcp_json" }

// MergeMCPJSON adds charter's entry under "mcpServers" in a project's
// .mcp.json, or brings it up to date. data is the file as it is (nil or
// empty when it does not exist). Every other server and key is kept, in its
// order; inside charter's entry the keys charter does not own (say "env")
// are kept too. When the entry is already current, data comes back as it
// was, byte for byte. The output is indented like the input (two spaces for
// a new file).
func MergeMCPJSON(data []byte, e Entry) ([]byte, error) {
	want := claudeJSON(e)
	owned := []member{
		{key: "type", raw: mustJSON(want.Type)},
		{key: "command", raw: mustJSON(want.Command)},
		{key: "args", raw: mustJSON(want.Args)},
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return render([]member{{key: "mcpServers", raw: renderCompact([]member{{key: ServerName, raw: renderCompact(owned)}})}}, "  ", true), nil
	}
	top, err := parseObject(data, 0, "the file")
	if err != nil {
		return nil, err
	}
	servers, si := object{}, top.index("mcpServers")
	if si >= 0 {
		if servers, err = parseObject(data, top[si].off, `"mcpServers"`); err != nil {
			return nil, err
		}
	}
	entry, ci := object{}, servers.index(ServerName)
	if ci >= 0 && isObject(servers[ci].raw) {
		if entry, err = parseObject(data, servers[ci].off, `"mcpServers"."charter"`); err != nil {
			return nil, err
		}
	}
	changed := ci < 0 || !isObject(servers[ci].raw)
	for _, o := range owned {
		if i := entry.index(o.key); i < 0 {
			entry, changed = append(entry, o), true
		} else if !sameJSON(entry[i].raw, o.raw) {
			entry[i].raw, changed = o.raw, true
		}
	}
	if !changed {
		return data, nil
	}
	servers = servers.set(ServerName, renderCompact(entry))
	top = top.set("mcpServers", renderCompact(servers))
	return render(top, indentOf(data), bytes.HasSuffix(data, []byte("\n"))), nil
}

// member is one key of a JSON object and its value as written.
type member struct {
	key string
	raw json.RawMessage
	off int64 // where the value starts in the whole file, for error lines
}

type object []member

func (o object) index(key string) int {
	for i, m := range o {
		if m.key == key {
			return i
		}
	}
	return -1
}

// set replaces key's value in place, or appends the key.
func (o object) set(key string, raw json.RawMessage) object {
	if i := o.index(key); i >= 0 {
		o[i].raw = raw
		return o
	}
	return append(o, member{key: key, raw: raw})
}

// parseObject reads the object that starts at offset off of data, keeping
// its keys in order. what names it in errors.
func parseObject(data []byte, off int64, what string) (object, error) {
	fail := func(at int64, format string, args ...any) error {
		return &MCPJSONError{Line: lineAt(data, at), Msg: fmt.Sprintf(format, args...)}
	}
	dec := json.NewDecoder(bytes.NewReader(data[off:]))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxError(data, off, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fail(off, "%s is not a JSON object", what)
	}
	var out object
	seen := map[string]bool{}
	for dec.More() {
		at := off + dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, syntaxError(data, off, err)
		}
		key := tok.(string) // inside an object the decoder only yields string keys
		if seen[key] {
			return nil, fail(at, "key %q appears twice in %s", key, what)
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, syntaxError(data, off, err)
		}
		// The value starts after the colon and any space before it.
		voff := off + dec.InputOffset() - int64(len(raw))
		out = append(out, member{key: key, raw: raw, off: voff})
	}
	if _, err := dec.Token(); err != nil {
		return nil, syntaxError(data, off, err)
	}
	if off == 0 {
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			return nil, fail(dec.InputOffset(), "%s holds more than one JSON value", what)
		}
	}
	return out, nil
}

func syntaxError(data []byte, off int64, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &MCPJSONError{Line: lineAt(data, off+se.Offset), Msg: se.Error()}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &MCPJSONError{Line: lineAt(data, int64(len(data))), Msg: "the JSON ends too early"}
	}
	return &MCPJSONError{Msg: err.Error()}
}

func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return bytes.Count(data[:off], []byte("\n")) + 1
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}

// sameJSON compares two values as JSON, whatever their spacing.
func sameJSON(a, b json.RawMessage) bool {
	var x, y bytes.Buffer
	return json.Compact(&x, a) == nil && json.Compact(&y, b) == nil && bytes.Equal(x.Bytes(), y.Bytes())
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // strings and string lists always encode
	}
	return b
}

// renderCompact writes an object on one line; render indents it later.
func renderCompact(o object) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(encodeKey(m.key))
		b.WriteByte(':')
		json.Compact(&b, m.raw) // raw came from the decoder or from Marshal: it is valid
	}
	b.WriteByte('}')
	return b.Bytes()
}

// render writes the top-level object with the given indent.
func render(o object, indent string, newline bool) []byte {
	var b bytes.Buffer
	json.Indent(&b, renderCompact(o), "", indent) // valid by construction
	if newline {
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// encodeKey writes a key as JSON without HTML escaping, as people write it.
func encodeKey(k string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(k) // a string always encodes
	return bytes.TrimRight(b.Bytes(), "\n")
}

// indentOf finds the indent of the first indented line, two spaces when
// there is none.
func indentOf(data []byte) string {
	for _, line := range strings.Split(string(data), "\n")[1:] {
		trimmed := strings.TrimLeft(line, " \t")
		if ws := line[:len(line)-len(trimmed)]; ws != "" && trimmed != "" {
			return ws
		}
	}
	return "  "
}
