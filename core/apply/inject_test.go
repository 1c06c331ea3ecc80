package apply

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentkit/charter/core/settings"
)

// hostileValues would end a line or a code span, or forge a marker, if
// they were written raw. Validation refuses the control characters among
// them; the renderer must hold on its own too.
var hostileValues = []string{
	"go test\n" + EndMarker + "\n" + BeginMarker + "\nssh-ed25519 AAAA attacker",
	EndMarker, BeginMarker + " " + EndMarker, "`", "``", "a`b", "`" + EndMarker + "`", "```\n" + BeginMarker + "\n```",
	"x\r\n\r\n# Heading", "\u2028" + BeginMarker + "\u2029", "``` `` `", " ` ", "\x00\x1b[2J", "a \t b", "\u0085" + EndMarker,
	"go test ./... && echo `date` ``", "~~~", "<!-- charter:", "-->", "\n", "   ",
}

func TestRenderHostileValues(t *testing.T) {
	for _, v := range hostileValues {
		checkRender(t, v)
	}
}

// Whatever text a setting holds, the block keeps its lines and one marker
// pair, and the value sits whole in one code span.
func FuzzRenderValue(f *testing.F) {
	for _, v := range hostileValues {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if utf8.ValidString(v) {
			checkRender(t, v)
		}
	})
}

// checkRender renders v in every text setting and compares the block, line
// by line, with the block rendered with a plain placeholder: the lines are
// the same but for the code spans, and each span reads back (CommonMark)
// as v on one line. The block spliced into a file is found again whole.
func checkRender(t *testing.T, v string) {
	t.Helper()
	const placeholder = "VALUE"
	snap := snapshot(t, profileScope(), "")
	with := func(s string) []string {
		values := map[string]any{}
		for name, x := range snap.Values {
			values[name] = x
		}
		for _, k := range settings.Keys() {
			switch k.Kind {
			case settings.String:
				values[k.Name] = s
			case settings.List:
				values[k.Name] = []string{s, "ok"}
			}
		}
		s2 := *snap
		s2.Values = values
		block := Render(&s2, someContent)
		got, err := splice("F", []byte("# Mine\n"+string(Render(snap, someContent))+"tail\n"), block)
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		if again, err := splice("F", got, block); err != nil || string(again) != string(got) || string(got) != "# Mine\n"+string(block)+"tail\n" {
			t.Fatalf("%q: the block is not found again whole (%v):\n%s", v, err, again)
		}
		return strings.SplitAfter(string(block), "\n")
	}
	want, got := with(placeholder), with(v)
	span := "`" + placeholder + "`"
	wantText := strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if settings.ForbiddenRune(r) {
			return ' '
		}
		return r
	}, v)), " ")
	if wantText == "" { // nothing to say: the value is left out
		return
	}
	if len(got) != len(want) {
		t.Fatalf("%q: %d lines, want %d:\n%s", v, len(got), len(want), strings.Join(got, ""))
	}
	for i := range want {
		if want[i] == got[i] {
			continue
		}
		at := strings.Index(want[i], span)
		pre, post := want[i][:at], want[i][at+len(span):]
		if at < 0 || !strings.HasPrefix(got[i], pre) || !strings.HasSuffix(got[i], post) || len(got[i]) < len(pre)+len(post) {
			t.Fatalf("%q: line %d is %q, want it shaped as %q", v, i+1, got[i], want[i])
		}
		mid := got[i][len(pre) : len(got[i])-len(post)]
		text, ok := codeSpan(mid)
		if !ok || strings.Join(strings.Fields(text), " ") != wantText {
			t.Fatalf("%q: line %d holds %q, not one code span of the value (%q, %v)", v, i+1, mid, text, ok)
		}
	}
}

// codeSpan reads s as exactly one CommonMark code span and returns its
// text: a run of n backticks, text with no run of exactly n, the same run.
func codeSpan(s string) (string, bool) {
	n := len(s) - len(strings.TrimLeft(s, "`"))
	if n == 0 || len(s) < 2*n || strings.Repeat("`", n) != s[len(s)-n:] || strings.ContainsAny(s, "\n\r") {
		return "", false
	}
	inner := s[n : len(s)-n]
	if inner == "" || strings.HasSuffix(inner, "`") {
		return "", false
	}
	for i := 0; i < len(inner); {
		if inner[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(inner) && inner[j] == '`' {
			j++
		}
		if j-i == n {
			return "", false
		}
		i = j
	}
	if len(inner) > 2 && inner[0] == ' ' && inner[len(inner)-1] == ' ' && strings.Trim(inner, " ") != "" {
		inner = inner[1 : len(inner)-1]
	}
	return inner, true
}
