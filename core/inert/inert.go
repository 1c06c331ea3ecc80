// Package inert renders text that charter did not write (names,
// descriptions, paths and values read from files) for a terminal, so that
// the text is shown and never obeyed: an escape sequence in a rule's
// description could otherwise set the clipboard (OSC 52), retitle the
// window or redraw what the user reads, and a bidi control could make a
// command read differently from what runs (SPEC §12, "Terminal output is
// inert"). JSON output never goes through it: a document stays exact.
package inert

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Line renders s for a one-line field: every character Dangerous reports,
// tab and line feed included, and every byte that is not UTF-8 are shown
// escaped (\t, \n, \r, \x1b, \u009b, \u202e, \xff). A backslash stays as
// it is (Windows paths hold them), so `\x1b` written out in the text reads
// the same as an escaped ESC: it is shown, never obeyed, either way.
func Line(s string) string { return render(s, false) }

// Body renders text of many lines (a rule's body, a diff, an error that
// lists problems one a line): line feed and tab stay, everything else Line
// escapes is escaped.
func Body(s string) string { return render(s, true) }

// Writer is w with every write rendered as Body, for a log that writes a
// whole message at a time (a server's): a character split between two
// writes would show as its bytes, escaped.
func Writer(w io.Writer) io.Writer { return writer{w} }

type writer struct{ w io.Writer }

func (w writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.w, Body(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Dangerous reports whether a terminal could act on r, or show it as
// something it is not: C0 controls, DEL, C1 controls, the bidi controls
// and the Unicode line and paragraph separators.
func Dangerous(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	switch r {
	case 0x200e, 0x200f, 0x061c, 0x2028, 0x2029:
		return true
	}
	return false
}

func render(s string, multiline bool) string {
	i := firstUnsafe(s, multiline)
	if i < 0 {
		return s // the common case: nothing to escape, nothing allocated
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !escaped(r, multiline):
			b.WriteString(s[i : i+size])
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += size
	}
	return b.String()
}

// escaped reports whether r is shown escaped in a line or a body.
func escaped(r rune, multiline bool) bool {
	if multiline && (r == '\n' || r == '\t') {
		return false
	}
	return Dangerous(r)
}

// firstUnsafe is the index of the first byte render escapes, or -1.
func firstUnsafe(s string, multiline bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f { // printable ASCII, most of every string
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || escaped(r, multiline) {
			return i
		}
		i += size
	}
	return -1
}
