package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
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
func (e *MCPJSONError) Code() string { return core.CodeMalformedMCPJSON }

// MergeMCPJSON adds charter's entry under "mcpServers" in a project's
// .mcp.json, or brings it up to date. data is the file as it is (nil or
// empty when it does not exist).
//
// The edit is surgical: only the bytes of charter's own keys change, and
// every other server, key, value, comment-free byte of spacing and order
// stays as the user wrote it. Inside charter's entry, keys charter does not
// own (say "env") are kept. New keys follow the indentation around them.
// When the entry is already current, data comes back unchanged.
func MergeMCPJSON(data []byte, e Entry) ([]byte, error) {
	want := claudeJSON(e)
	owned := object{
		{key: "type", raw: mustJSON(want.Type)},
		{key: "command", raw: mustJSON(want.Command)},
		{key: "args", raw: mustJSON(want.Args)},
	}
	if len(bytes.TrimSpace(data)) == 0 {
		var b bytes.Buffer
		json.Indent(&b, compact(object{{key: "mcpServers", raw: compact(object{{key: ServerName, raw: compact(owned)}})}}), "", "  ")
		return append(b.Bytes(), '\n'), nil
	}
	f := &file{data: data, unit: indentUnit(data)}
	top, err := f.parse(0, "the file")
	if err != nil {
		return nil, err
	}
	si := top.members.index("mcpServers")
	if si < 0 {
		f.insert(top, object{{key: "mcpServers", raw: compact(object{{key: ServerName, raw: compact(owned)}})}})
		return f.apply(), nil
	}
	servers, err := f.parse(top.members[si].start, `"mcpServers"`)
	if err != nil {
		return nil, err
	}
	ci := servers.members.index(ServerName)
	switch {
	case ci < 0:
		f.insert(servers, object{{key: ServerName, raw: compact(owned)}})
	case !isObject(servers.members[ci].raw):
		f.replace(servers, ci, compact(owned))
	default:
		entry, err := f.parse(servers.members[ci].start, `"mcpServers"."charter"`)
		if err != nil {
			return nil, err
		}
		var missing object
		for _, o := range owned {
			if i := entry.members.index(o.key); i < 0 {
				missing = append(missing, o)
			} else if !sameJSON(entry.members[i].raw, o.raw) {
				f.replace(entry, i, o.raw)
			}
		}
		if len(missing) > 0 {
			f.insert(entry, missing)
		}
	}
	return f.apply(), nil
}

// member is one key of a JSON object and where it sits in the file.
type member struct {
	key        string
	raw        json.RawMessage
	keyStart   int64 // the key's opening quote
	start, end int64 // the value's bytes
}

type object []member

func (o object) index(key string) int {
	return slices.IndexFunc(o, func(m member) bool { return m.key == key })
}

// span is a parsed object: its members and the offsets of its braces.
type span struct {
	members     object
	open, close int64
}

// file is a .mcp.json being edited: the original bytes and the splices to
// make in them.
type file struct {
	data   []byte
	unit   string // one level of indentation
	splice []edit
}

type edit struct {
	start, end int64
	text       []byte
}

// parse reads the object that starts at offset off, keeping its keys in
// order. what names it in errors.
func (f *file) parse(off int64, what string) (span, error) {
	data := f.data
	fail := func(at int64, format string, args ...any) error {
		return &MCPJSONError{Line: lineAt(data, at), Msg: fmt.Sprintf(format, args...)}
	}
	dec := json.NewDecoder(bytes.NewReader(data[off:]))
	pos := func() int64 { return off + dec.InputOffset() }
	tok, err := dec.Token()
	if err != nil {
		return span{}, syntaxError(data, off, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return span{}, fail(pos(), "%s is not a JSON object", what)
	}
	sp := span{open: pos() - 1}
	seen := map[string]bool{}
	for dec.More() {
		keyStart := pos() + int64(bytes.IndexByte(data[pos():], '"'))
		tok, err := dec.Token()
		if err != nil {
			return span{}, syntaxError(data, off, err)
		}
		key := tok.(string) // inside an object the decoder only yields string keys
		if seen[key] {
			return span{}, fail(keyStart, "key %q appears twice in %s", key, what)
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return span{}, syntaxError(data, off, err)
		}
		m := member{key: key, raw: raw, keyStart: keyStart, end: pos()}
		m.start = m.end - int64(len(raw))
		if !bytes.Equal(data[m.start:m.end], raw) {
			return span{}, fail(m.start, "cannot locate the value of %q in %s", key, what)
		}
		sp.members = append(sp.members, m)
	}
	if _, err := dec.Token(); err != nil {
		return span{}, syntaxError(data, off, err)
	}
	sp.close = pos() - 1
	if off == 0 {
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			return span{}, fail(pos(), "%s holds more than one JSON value", what)
		}
	}
	return sp, nil
}

// lineIndent is the indentation of the line that holds offset at, and
// whether only that indentation precedes it on its line.
func (f *file) lineIndent(at int64) (string, bool) {
	ls := bytes.LastIndexByte(f.data[:at], '\n') + 1
	lead := f.data[ls:at]
	return string(lead), len(bytes.Trim(lead, " \t")) == 0
}

// layout tells how members of sp are written: each on its own line with
// the given indentation, or all on one line.
func (f *file) layout(sp span) (indent string, multiline bool) {
	if len(sp.members) > 0 {
		return f.lineIndent(sp.members[len(sp.members)-1].keyStart)
	}
	// An empty object: open it up one level deeper than its own line,
	// unless the whole file is on one line.
	outer, _ := f.lineIndent(sp.open)
	return leadingSpace(outer) + f.unit, bytes.IndexByte(f.data, '\n') >= 0
}

// value renders raw for a member written at indent.
func (f *file) value(raw json.RawMessage, indent string, multiline bool) []byte {
	if !multiline {
		return oneLine(raw)
	}
	var b bytes.Buffer
	json.Indent(&b, raw, indent, f.unit) // raw is valid JSON: from the file or from Marshal
	return b.Bytes()
}

// insert adds members at the end of sp, laid out like the ones already there.
func (f *file) insert(sp span, add object) {
	indent, multiline := f.layout(sp)
	var b bytes.Buffer
	for i, m := range add {
		if i > 0 || len(sp.members) > 0 {
			b.WriteByte(',')
		}
		if multiline {
			b.WriteString("\n" + indent)
		} else if i > 0 || len(sp.members) > 0 {
			b.WriteByte(' ')
		}
		b.Write(encodeKey(m.key))
		b.WriteString(": ")
		b.Write(f.value(m.raw, indent, multiline))
	}
	if len(sp.members) > 0 {
		last := sp.members[len(sp.members)-1]
		f.splice = append(f.splice, edit{start: last.end, end: last.end, text: b.Bytes()})
		return
	}
	// Replace the inside of the empty braces.
	if multiline {
		outer, _ := f.lineIndent(sp.open)
		b.WriteString("\n" + leadingSpace(outer)) // the closing brace, under its line
	}
	f.splice = append(f.splice, edit{start: sp.open + 1, end: sp.close, text: b.Bytes()})
}

// replace puts raw in place of the value of sp's i-th member, on one line
// if the old value was.
func (f *file) replace(sp span, i int, raw json.RawMessage) {
	m := sp.members[i]
	indent, _ := f.lineIndent(m.keyStart)
	multiline := bytes.IndexByte(m.raw, '\n') >= 0 || (isObject(raw) && bytes.IndexByte(f.data, '\n') >= 0)
	f.splice = append(f.splice, edit{start: m.start, end: m.end, text: f.value(raw, leadingSpace(indent), multiline)})
}

// apply makes the splices, which never overlap, and returns the new bytes.
func (f *file) apply() []byte {
	if len(f.splice) == 0 {
		return f.data
	}
	slices.SortFunc(f.splice, func(a, b edit) int { return int(a.start - b.start) })
	var out bytes.Buffer
	at := int64(0)
	for _, e := range f.splice {
		out.Write(f.data[at:e.start])
		out.Write(e.text)
		at = e.end
	}
	out.Write(f.data[at:])
	return out.Bytes()
}

// leadingSpace is the run of spaces and tabs s starts with.
func leadingSpace(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

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

// compact writes an object on one line without spaces.
func compact(o object) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(encodeKey(m.key))
		b.WriteByte(':')
		json.Compact(&b, m.raw) // valid: from Marshal or compact
	}
	b.WriteByte('}')
	return b.Bytes()
}

// oneLine writes a value on one line, with a space after each comma and
// colon, as people write short JSON.
func oneLine(raw json.RawMessage) []byte {
	var c, out bytes.Buffer
	json.Compact(&c, raw) // valid: from Marshal or compact
	inString, escaped := false, false
	for _, ch := range c.Bytes() {
		out.WriteByte(ch)
		switch {
		case escaped:
			escaped = false
		case inString && ch == '\\':
			escaped = true
		case ch == '"':
			inString = !inString
		case !inString && (ch == ',' || ch == ':'):
			out.WriteByte(' ')
		}
	}
	return out.Bytes()
}

// encodeKey writes a key as JSON without HTML escaping, as people write it.
func encodeKey(k string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(k) // a string always encodes
	return bytes.TrimRight(b.Bytes(), "\n")
}

// indentUnit finds one level of indentation: that of the first indented
// line, two spaces when there is none.
func indentUnit(data []byte) string {
	for _, line := range strings.Split(string(data), "\n")[1:] {
		if ws := leadingSpace(line); ws != "" && strings.TrimSpace(line) != "" {
			return ws
		}
	}
	return "  "
}
