package settings

// In-place edits: setting a key whose value sits on one line replaces just
// that value's text, as a person editing the file would. Every other byte
// stays (blank lines, spacing, quoting, the alignment of comments), and the
// work is one parse of the result rather than a rewrite of the whole file.
// The result is accepted only when it parses to exactly the tree the
// general edit builds; otherwise the store rewrites the file as before.

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// span is one value's text in a file and the text that replaces it.
type span struct {
	from, to int
	text     string
}

// inPlaceSpans finds, for every key u sets, the one-line scalar that holds
// its value in data (the file's bytes as read) and the one-line text of the
// new value. ok is false when any key is not so simple: absent, a block or
// multi-line value, a tag, an anchor or an alias; or when u unsets a key
// the file has.
func inPlaceSpans(f *yamlFile, leaves []leaf, data []byte, u Update) ([]span, bool) {
	if len(u.Set) == 0 {
		return nil, false
	}
	for _, key := range u.Unset {
		if slices.ContainsFunc(leaves, func(l leaf) bool { return l.key == key }) {
			return nil, false
		}
	}
	base := 0
	if f.bom {
		base = len(utf8BOM)
	}
	var lines []int // start of each line, found once up to the deepest line needed
	spans := make([]span, 0, len(u.Set))
	for key, v := range u.Set {
		i := slices.IndexFunc(leaves, func(l leaf) bool { return l.key == key })
		if i < 0 {
			return nil, false
		}
		n := leaves[i].value
		if n.Kind != yaml.ScalarNode || n.Anchor != "" || n.Value == "" ||
			n.Style&^(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 {
			return nil, false
		}
		for len(lines) < n.Line {
			next := base
			if len(lines) > 0 {
				j := bytes.IndexByte(data[lines[len(lines)-1]:], '\n')
				if j < 0 {
					return nil, false
				}
				next = lines[len(lines)-1] + j + 1
			}
			lines = append(lines, next)
		}
		from, ok := runeOffset(data, lines[n.Line-1], n.Column-1)
		if !ok {
			return nil, false
		}
		to, ok := scalarEnd(data, from, n)
		if !ok {
			return nil, false
		}
		text, ok := inlineText(toNode(v))
		if !ok {
			return nil, false
		}
		spans = append(spans, span{from, to, text})
	}
	slices.SortFunc(spans, func(a, b span) int { return a.from - b.from })
	for i := 1; i < len(spans); i++ {
		if spans[i].from < spans[i-1].to {
			return nil, false
		}
	}
	return spans, true
}

// runeOffset is the byte offset of the col-th character after start (the
// parser counts columns in characters), staying on start's line.
func runeOffset(data []byte, start, col int) (int, bool) {
	at := start
	for ; col > 0; col-- {
		if at >= len(data) || data[at] == '\n' {
			return 0, false
		}
		_, w := utf8.DecodeRune(data[at:])
		at += w
	}
	return at, true
}

// scalarEnd is where the scalar n that starts at from ends, on the same
// line: a plain scalar is its own text, a quoted one ends at its closing
// quote.
func scalarEnd(data []byte, from int, n *yaml.Node) (int, bool) {
	switch n.Style {
	case 0:
		to := from + len(n.Value)
		if to > len(data) || string(data[from:to]) != n.Value {
			return 0, false // spans lines, or not the text the parser saw
		}
		return to, true
	case yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle:
		q := data[from]
		if q != '\'' && q != '"' {
			return 0, false
		}
		for i := from + 1; i < len(data); i++ {
			switch c := data[i]; {
			case c == '\n':
				return 0, false
			case c == '\\' && q == '"':
				i++
			case c == q && q == '\'' && i+1 < len(data) && data[i+1] == '\'':
				i++
			case c == q:
				return i + 1, true
			}
		}
	}
	return 0, false
}

// inlineText is the YAML text of a value when it fits on one line.
func inlineText(n *yaml.Node) (string, bool) {
	b, err := yaml.Marshal(n)
	if err != nil {
		return "", false
	}
	s, ok := strings.CutSuffix(string(b), "\n")
	return s, ok && s != "" && !strings.ContainsAny(s, "\n\r")
}

// splice replaces each span of data, in order.
func splice(data []byte, spans []span) []byte {
	size := len(data)
	for _, s := range spans {
		size += len(s.text) - (s.to - s.from)
	}
	out := make([]byte, 0, size)
	at := 0
	for _, s := range spans {
		out = append(out, data[at:s.from]...)
		out = append(out, s.text...)
		at = s.to
	}
	return append(out, data[at:]...)
}

// sameTree reports whether two trees hold the same keys, values, tags and
// comments in the same places, wherever they sit in their text.
func sameTree(a, b *yaml.Node) bool {
	if a.Kind != b.Kind || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment ||
		len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !sameTree(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}
