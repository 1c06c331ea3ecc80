package jsonedit

import (
	"bytes"
	"strings"

	"github.com/agentkit/charter/helpers/jsondoc"
)

// Doc is one version of a file's bytes, parsed, with the file's style.
// Each edit returns the new bytes and leaves the Doc as it was: callers
// make one edit, then open the result again, so every edit works on
// offsets that are certainly current (the files are small).
type Doc struct {
	Data   []byte
	Root   *Node
	unit   string // one level of indentation
	nl     string // the file's line ending
	spaced bool   // "a": 1, "b": 2 rather than "a":1,"b":2
	plain  []byte // Data with comments blanked (JSONC), else Data
}

// Open parses data (see Parse) and reads its style: the indentation unit
// is that of the first indented line (two spaces when none is), the line
// ending CRLF when the file has one, and the spacing that of its first
// colon.
func Open(data []byte, fail Fail) (*Doc, error) {
	root, err := Parse(data, fail)
	if err != nil {
		return nil, err
	}
	d := &Doc{Data: data, Root: root, unit: "  ", nl: "\n", spaced: colonSpaced(data), plain: data}
	if bytes.Contains(data, []byte("\r\n")) {
		d.nl = "\r\n"
	}
	for _, line := range bytes.Split(data, []byte("\n"))[1:] {
		ws := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		if len(ws) > 0 && len(bytes.TrimSpace(line)) > 0 {
			d.unit = string(ws)
			break
		}
	}
	return d, nil
}

// Raw is a value's bytes as written.
func (d *Doc) Raw(n *Node) []byte { return d.Data[n.Start:n.End] }

// Value is the text of a new value, given the indentation of the line it
// starts on (prefix) and whether the file puts it on lines of its own.
type Value func(prefix string, multi bool) string

// Render encodes v in the file's style: indented with its unit and line
// ending after prefix, or on one line spaced as the file is.
func (d *Doc) Render(v any, prefix string, multi bool) string {
	out := Encode(v, prefix, d.unit, multi, d.nl)
	if !multi && d.spaced {
		out = Spaced(out)
	}
	return out
}

// Encode writes v as JSON without HTML escaping (people write & and <
// as they are): indented with prefix and unit and nl line endings when
// multi, else compact.
func Encode(v any, prefix, unit string, multi bool, nl string) string {
	if !multi {
		prefix, unit = "", ""
	}
	b, _ := jsondoc.Encode(v, prefix, unit) // callers encode plain structs, strings and raw JSON
	out := strings.TrimSuffix(string(b), "\n")
	if nl != "\n" {
		out = strings.ReplaceAll(out, "\n", nl)
	}
	return out
}

// Spaced puts a space after each ',' and ':' of compact JSON, as people
// write short JSON on one line.
func Spaced(compact string) string {
	var b strings.Builder
	last := 0
	outsideStrings(compact, func(i int) bool {
		if c := compact[i]; c == ',' || c == ':' {
			b.WriteString(compact[last : i+1])
			b.WriteByte(' ')
			last = i + 1
		}
		return true
	})
	b.WriteString(compact[last:])
	return b.String()
}

// colonSpaced reports whether the file's first key is followed by ": ".
func colonSpaced(data []byte) bool {
	spaced := true
	outsideStrings(data, func(i int) bool {
		if data[i] != ':' {
			return true
		}
		spaced = i+1 < len(data) && isSpace(data[i+1])
		return false
	})
	return spaced
}

// outsideStrings calls f with the offset of each byte of JSON text that
// is neither inside a string nor its quote, until f returns false.
func outsideStrings[T ~string | ~[]byte](data T, f func(i int) bool) {
	in, esc := false, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in:
			if !f(i) {
				return
			}
		}
	}
}

// Position is the 1-based line and column of byte offset off.
func Position(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = off - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// IndentOf is the indentation of the line holding off.
func (d *Doc) IndentOf(off int) string {
	start := bytes.LastIndexByte(d.Data[:off], '\n') + 1
	line := d.Data[start:]
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}

// Replace puts text in place of value n.
func (d *Doc) Replace(n *Node, text string) []byte { return d.splice(n.Start, n.End, text) }

func (d *Doc) splice(start, end int, text string) []byte {
	out := make([]byte, 0, len(d.Data)-(end-start)+len(text))
	out = append(out, d.Data[:start]...)
	out = append(out, text...)
	return append(out, d.Data[end:]...)
}

// AppendElem adds a last element to array arr.
func (d *Doc) AppendElem(arr *Node, value Value) []byte {
	last := -1
	if n := len(arr.Elems); n > 0 {
		last = arr.Elems[n-1].Start
	}
	return d.insert(arr, last, value)
}

// AppendMember adds a last member to object obj, with the colon spacing
// of the member before it (in an empty object, ": " unless the file is
// written compact on one line).
func (d *Doc) AppendMember(obj *Node, key string, value Value) []byte {
	last, colon := -1, ""
	if n := len(obj.Members); n > 0 {
		m := obj.Members[n-1]
		last = m.KeyStart
		colon = string(d.Data[m.KeyEnd:m.Val.Start])
		if d.commented(m.KeyEnd, m.Val.Start) {
			colon = ": " // the user's comment stays theirs
		}
	}
	return d.insert(obj, last, func(prefix string, multi bool) string {
		c := colon
		if last < 0 {
			c = ": " // an empty object: the file's style
			if !multi && !d.spaced {
				c = ":"
			}
		}
		return Encode(key, "", "", false, "\n") + c + value(prefix, multi)
	})
}

// insert puts text as the new last child of container c: after the last
// child (which starts at last) with a comma and that child's leading
// whitespace, or alone inside an empty container, on lines of its own
// unless the whole document is written on one line.
func (d *Doc) insert(c *Node, last int, text Value) []byte {
	if last >= 0 {
		ws, multi := d.leading(last)
		prefix := ""
		end := c.childEnd(c.count() - 1)
		comma, after, lineComment := d.tail(end)
		if lineComment && !multi { // text after a // comment would be inside it
			ws, multi = d.nl+d.IndentOf(last), true
		}
		if multi {
			prefix = ws[strings.LastIndexByte(ws, '\n')+1:]
		}
		if ws == "" && d.spaced {
			ws = " "
		}
		switch {
		case comma >= 0: // a trailing comma: the new child gets one too
			return d.splice(after, after, ws+text(prefix, multi)+",")
		case after > end: // after the comments on the last child's line
			if lineComment { // blanks before the break would join the comment
				ws = ws[strings.IndexAny(ws, "\r\n"):]
			}
			out := d.splice(after, after, ws+text(prefix, multi))
			return append(out[:end:end], append([]byte{','}, out[end:]...)...)
		}
		return d.splice(end, end, ","+ws+text(prefix, multi))
	}
	multi := d.multiline()
	if lc, line := d.lastComment(c.Start+1, c.End-1); lc >= 0 { // keep the comments inside
		if !multi && !line { // text after a // comment would be inside it
			return d.splice(lc, lc, " "+text("", false))
		}
		inner := d.IndentOf(c.Start) + d.unit
		return d.splice(lc, lc, d.nl+inner+text(inner, true))
	}
	if !multi {
		return d.splice(c.Start+1, c.End-1, text("", false))
	}
	outer := d.IndentOf(c.Start)
	inner := outer + d.unit
	return d.splice(c.Start+1, c.End-1, d.nl+inner+text(inner, true)+d.nl+outer)
}

// leading returns the whitespace before offset back to the previous
// delimiter, and whether it puts the child on a line of its own.
func (d *Doc) leading(off int) (string, bool) {
	i := off
	for i > 0 && isSpace(d.Data[i-1]) {
		i--
	}
	ws := string(d.Data[i:off])
	return ws, strings.Contains(ws, "\n")
}

// multiline tells whether text in an empty container goes on lines of
// its own: yes unless the whole document is on one line (an empty object
// counts as not yet styled).
func (d *Doc) multiline() bool {
	t := bytes.TrimSpace(d.Data)
	return bytes.Contains(t, []byte("\n")) || bytes.Equal(t, []byte("{}"))
}

// Remove deletes child i of container c with the separator on one side,
// so the neighbours keep their spacing; the only child leaves the
// container empty ([] or {}).
func (d *Doc) Remove(c *Node, i int) []byte {
	if d.commented(c.Start, c.End) {
		return d.removeCommented(c, i)
	}
	n := c.count()
	switch {
	case n == 1:
		return d.splice(c.Start+1, c.End-1, "")
	case i < n-1:
		return d.splice(c.childStart(i), c.childStart(i+1), "")
	default:
		return d.splice(c.childEnd(i-1), c.childEnd(i), "")
	}
}

// InsertElem puts a new element before element i of array arr (last when
// i is the count), with the separator and spacing of element i, so Remove
// of element i takes out exactly what it added.
func (d *Doc) InsertElem(arr *Node, i int, value Value) []byte {
	if i >= len(arr.Elems) {
		return d.AppendElem(arr, value)
	}
	start := arr.Elems[i].Start
	ws, multi := d.leading(start)
	prefix := ""
	if multi {
		prefix = ws[strings.LastIndexByte(ws, '\n')+1:]
	}
	if ws == "" && d.spaced {
		ws = " "
	}
	return d.splice(start, start, value(prefix, multi)+","+ws)
}
