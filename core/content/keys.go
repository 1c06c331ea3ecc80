package content

import "strings"

// KeyText is one top-level key of a frontmatter with its text as written:
// its line, its value's lines and the comments up to the next key.
type KeyText struct {
	Key  string
	Text string
}

// KeyTexts splits front (the YAML between the --- lines) at its top-level
// keys, byte for byte, so that a projector can pass some keys on as the
// source writes them; nil when front holds no valid mapping.
func KeyTexts(front []byte) []KeyText {
	fm := Frontmatter{Present: true, Raw: front}
	if fm.parse(1) != nil {
		return nil
	}
	return keyTexts(front, fm.Fields, 1)
}

// keyTexts is KeyTexts of front, already parsed into fields whose lines
// count from first.
func keyTexts(front []byte, fields []Field, first int) []KeyText {
	if len(fields) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(front), "\n")
	out := make([]KeyText, len(fields))
	for i, f := range fields {
		from, to := f.Line-first, len(lines)
		if i == 0 {
			from = 0 // comments before the first key go with it
		}
		if i+1 < len(fields) {
			to = fields[i+1].Line - first
		}
		out[i] = KeyText{Key: f.Key, Text: strings.Join(lines[from:to], "")}
	}
	return out
}

// rawValue is the text after key: on the field's line, as written: an
// agent that reads `argument-hint: [focus area]` as text, not a list.
func rawValue(data []byte, f *Field) string {
	lines := strings.Split(string(data), "\n")
	if f.Line < 1 || f.Line > len(lines) {
		return ""
	}
	_, v, _ := strings.Cut(lines[f.Line-1], ":")
	return strings.TrimSpace(strings.TrimSuffix(v, "\r"))
}
