package inert

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain words, émigré, 日本語 👨‍👩‍👧", "plain words, émigré, 日本語 👨‍👩‍👧"},
		{`C:\Users\me`, `C:\Users\me`},
		{"\x1b]52;c;aGk=\a", `\x1b]52;c;aGk=\x07`},
		{"a\tb\nc\rd", `a\tb\nc\rd`},
		{"del\x7f nul\x00", `del\x7f nul\x00`},
		{"csi\u009b2J nel\u0085", `csi\u009b2J nel\u0085`},
		{"rlo\u202eabc\u202c", `rlo\u202eabc\u202c`},
		{"\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u202a\u202b\u202d", `\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u202a\u202b\u202d`},
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`},
		{"bad \xff\x9b utf-8", `bad \xff\x9b utf-8`},
		{"replacement \ufffd kept", "replacement \ufffd kept"},
	}
	for _, c := range cases {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestBody(t *testing.T) {
	in := "# Title\n\tindented\r\n\x1b[2Jgone\u202e\n"
	want := "# Title\n\tindented\\r\n\\x1b[2Jgone\\u202e\n"
	if got := Body(in); got != want {
		t.Errorf("Body(%q) = %q, want %q", in, got, want)
	}
}

func TestWriter(t *testing.T) {
	var b strings.Builder
	n, err := fmt.Fprintf(Writer(&b), "charter: warning: %s\n\tat x\n", "a\x1b]0;title\a")
	if want := "charter: warning: a\\x1b]0;title\\x07\n\tat x\n"; err != nil || b.String() != want || n != 36 {
		t.Errorf("wrote %d %v %q, want %q", n, err, b.String(), want)
	}
}

func TestPlainIsNotCopied(t *testing.T) {
	s := strings.Repeat("a rule description ", 10)
	if n := testing.AllocsPerRun(100, func() { _ = Line(s) }); n != 0 {
		t.Errorf("Line of plain text allocates %v times, want 0", n)
	}
}

// FuzzRender holds what a terminal relies on: valid UTF-8 out, no
// character Dangerous reports (a body keeps its newlines and tabs), and
// text with nothing to escape comes back as it went in.
func FuzzRender(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b]52;c;x\a", "a\nb\tc\r", "\u202e\u2028\xff\u009b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, out := range map[string]string{"Line": Line(s), "Body": Body(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("%s(%q) = %q is not UTF-8", name, s, out)
			}
			for _, r := range out {
				if Dangerous(r) && !(name == "Body" && (r == '\n' || r == '\t')) {
					t.Fatalf("%s(%q) = %q holds %U", name, s, out, r)
				}
			}
		}
		clean := utf8.ValidString(s) && !strings.ContainsFunc(s, Dangerous)
		if clean && Line(s) != s {
			t.Fatalf("Line(%q) = %q changed text with nothing to escape", s, Line(s))
		}
	})
}
