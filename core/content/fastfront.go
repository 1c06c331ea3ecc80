package content

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// simpleFields reads a frontmatter made only of `key: value` lines, the
// way almost every source is written, without the YAML library (a tenth
// of a cold projection's CPU went to it). A value is a plain word-led
// text, a quoted text without escapes, or a flow list of those. The
// nodes are the ones YAML would build (FuzzFrontmatter holds them equal);
// ok is false for anything else, which YAML then reads.
func simpleFields(raw []byte, first int) (fields []Field, ok bool) {
	if !simpleText(raw) {
		return nil, false
	}
	line := first
	for rest := raw; len(rest) > 0; line++ {
		text := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			text, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		key, value, col, ok := splitKey(text)
		if !ok {
			return nil, false
		}
		node, ok := simpleValue(value, line, col)
		if !ok || slices.ContainsFunc(fields, func(f Field) bool { return f.Key == key }) {
			return nil, false // a repeated key: YAML's path says so
		}
		fields = append(fields, Field{Key: key, Line: line, Value: node})
	}
	return fields, len(fields) > 0
}

// simpleText reports text with no byte YAML gives a meaning beyond a
// character: control characters, tabs, carriage returns, and the Unicode
// line breaks and byte order mark.
func simpleText(raw []byte) bool {
	for _, c := range raw {
		if (c < 0x20 && c != '\n') || c == 0x7f {
			return false
		}
	}
	return utf8.Valid(raw) && !bytes.Contains(raw, []byte("\u0085")) && !bytes.Contains(raw, []byte("\u2028")) &&
		!bytes.Contains(raw, []byte("\u2029")) && !bytes.Contains(raw, []byte("\ufeff"))
}

// splitKey splits `key: value` at its first ": ", the key a word at the
// line's start; value has its blanks trimmed and is never empty, and col
// is its column.
func splitKey(line []byte) (key string, value []byte, col int, ok bool) {
	i := 0
	for i < len(line) && (isLetter(line[i]) || i > 0 && (isDigit(line[i]) || line[i] == '-' || line[i] == '_')) {
		i++
	}
	// A key longer than 1,024 characters is no implicit key to YAML.
	if i == 0 || i > 1024 || !bytes.HasPrefix(line[i:], []byte(": ")) {
		return "", nil, 0, false
	}
	value = bytes.TrimLeft(line[i+2:], " ")
	col = len(line) - len(value) + 1
	value = bytes.TrimRight(value, " ")
	return string(line[:i]), value, col, len(value) > 0
}

func simpleValue(v []byte, line, col int) (*yaml.Node, bool) {
	if v[0] != '[' {
		n, rest, ok := simpleScalar(v, line, col, false)
		return n, ok && len(rest) == 0
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Tag: "!!seq", Line: line, Column: col}
	at := func(b []byte) int { return col + utf8.RuneCount(v[:len(v)-len(b)]) } // b's column: YAML counts characters
	rest := v[1:]
	for {
		rest = bytes.TrimLeft(rest, " ")
		if len(seq.Content) == 0 && len(rest) > 0 && rest[0] == ']' {
			rest = rest[1:]
			break
		}
		item, after, ok := simpleScalar(rest, line, at(rest), true)
		if !ok {
			return nil, false
		}
		seq.Content = append(seq.Content, item)
		rest = bytes.TrimLeft(after, " ")
		if len(rest) > 0 && rest[0] == ']' {
			rest = rest[1:]
			break
		}
		if len(rest) == 0 || rest[0] != ',' {
			return nil, false
		}
		rest = rest[1:]
	}
	return seq, len(rest) == 0
}

// simpleScalar reads one scalar at the start of v: quoted without
// escapes, or plain and led by a letter; inList, it ends at , or ].
func simpleScalar(v []byte, line, col int, inList bool) (*yaml.Node, []byte, bool) {
	if len(v) == 0 {
		return nil, nil, false
	}
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Line: line, Column: col}
	switch q := v[0]; q {
	case '"', '\'':
		end := bytes.IndexByte(v[1:], q)
		if end < 0 || bytes.IndexByte(v[1:end+1], '\\') >= 0 || bytes.HasPrefix(v[end+2:], []byte{q}) {
			return nil, nil, false // an escape, or '' inside single quotes
		}
		n.Style, n.Value = yaml.DoubleQuotedStyle, string(v[1:end+1])
		if q == '\'' {
			n.Style = yaml.SingleQuotedStyle
		}
		return n, v[end+2:], true
	}
	if !isLetter(v[0]) {
		return nil, nil, false
	}
	end := len(v)
	if inList {
		end = bytes.IndexAny(v, ",]")
		if end < 0 || bytes.ContainsFunc(v[:end], notListPlain) {
			return nil, nil, false
		}
	}
	text := bytes.TrimRight(v[:end], " ")
	if bytes.Contains(text, []byte(": ")) || bytes.HasSuffix(text, []byte(":")) || bytes.Contains(text, []byte(" #")) {
		return nil, nil, false
	}
	n.Value = string(text)
	switch n.Value {
	case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
		return nil, nil, false // not text: YAML resolves it
	}
	return n, v[end:], true
}

// notListPlain reports a character a plain word in a flow list may not
// hold here: YAML gives many a meaning there, so only these pass.
func notListPlain(r rune) bool {
	return !(r < utf8.RuneSelf && (isLetter(byte(r)) || isDigit(byte(r)) || strings.ContainsRune(" -_./*()@+=~", r)))
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
