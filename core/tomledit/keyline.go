package tomledit

import (
	"slices"
	"strings"
)

// KeyLine is the byte range of the line that sets key directly in the
// table written as a [table] header (not in its sub-tables), newline
// included; ok false when that table has no such line.
func (d *Doc) KeyLine(table []string, key string) (start, end int, ok bool) {
	t, found := d.header(table)
	if !found {
		return 0, 0, false
	}
	s := string(d.Data[:t.end])
	pos := t.start + strings.IndexByte(s[t.start:], '\n') + 1
	if pos <= t.start { // the header is the file's last line, with no newline
		return 0, 0, false
	}
	var ml string
	depth := 0
	for pos < t.end {
		next := t.end
		if nl := strings.IndexByte(s[pos:], '\n'); nl >= 0 {
			next = pos + nl + 1
		}
		line := s[pos:next]
		trimmed := strings.TrimLeft(line, " \t")
		if ml == "" && depth == 0 && strings.TrimSpace(trimmed) != "" && !strings.HasPrefix(trimmed, "#") &&
			slices.Equal(headerKey(trimmed, false), []string{key}) {
			return pos, next, true
		}
		ml, depth = scanValue(line, ml, depth)
		pos = next
	}
	return 0, 0, false
}

// TableEnd is where a key line added to the [table] header's own lines
// goes: after its last key line (or after the header), before any
// sub-table; ok false when the file has no such header.
func (d *Doc) TableEnd(table []string) (int, bool) {
	t, ok := d.header(table)
	return t.end, ok
}

// Insert is the file with text put in at pos.
func (d *Doc) Insert(pos int, text string) []byte {
	return slices.Concat(d.Data[:pos], []byte(text), d.Data[pos:])
}

func (d *Doc) header(key []string) (table, bool) {
	for _, t := range d.tables {
		if !t.array && slices.Equal(t.key, key) {
			return t, true
		}
	}
	return table{}, false
}
