package session

import (
	"strings"
	"testing"
)

// Ruler's text goes section by section; a section edited since ruler
// wrote it, and text of the person's own, stay.
func TestStripRuler(t *testing.T) {
	src := map[string]string{".ruler/AGENTS.md": "# Overview\n\nA service.", ".ruler/style.md": "# Style\n\nShort functions."}
	text := "My own note.\n\n" + rulerGenerated + "\n\n\n<!-- Source: .ruler/AGENTS.md -->\n\n# Overview\n\nA service.\n\n\n\n<!-- Source: .ruler/style.md -->\n\n# Style\n\nLong functions.\n"
	got, kept := stripRuler(text, src)
	want := "My own note.\n\n<!-- Source: .ruler/style.md -->\n\n# Style\n\nLong functions."
	if got != want {
		t.Errorf("stripRuler =\n%q\nwant\n%q", got, want)
	}
	if len(kept) != 1 || !strings.Contains(kept[0], ".ruler/style.md") {
		t.Errorf("kept = %q, want the edited section named", kept)
	}
	if got, _ := stripRuler("# Mine\n", src); got != "# Mine" {
		t.Errorf("a file without ruler's marks changed: %q", got)
	}
}

// rulesync's bodies go where each stands whole on lines of its own; the
// same words inside a line of the person's stay.
func TestStripBodies(t *testing.T) {
	text := "# Overview\n\nA service.\n\nUse strict mode.\n\nMine: Use strict mode. always.\n"
	got := stripBodies(text, []string{"# Overview\n\nA service.", "Use strict mode."})
	if want := "Mine: Use strict mode. always."; got != want {
		t.Errorf("stripBodies = %q, want %q", got, want)
	}
	if got := stripBodies("A service.\n", []string{"# Overview\n\nA service."}); got != "A service." {
		t.Errorf("a partial body was taken: %q", got)
	}
}

func TestWithoutIgnoreBlock(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\n" + rulerIgnoreA + "\n/AGENTS.md\n" + rulerIgnoreZ + "\n", ""},
		{"node_modules/\n\n" + rulerIgnoreA + "\n/CLAUDE.md\n" + rulerIgnoreZ + "\n", "node_modules/\n"},
		{"a\n" + syncIgnoreA + "\n**/CLAUDE.md\n" + syncIgnoreZ + "\nb\n", "a\nb\n"},
	} {
		begin, end := rulerIgnoreA, rulerIgnoreZ
		if strings.Contains(c.in, syncIgnoreA) {
			begin, end = syncIgnoreA, syncIgnoreZ
		}
		got, ok := withoutIgnoreBlock(c.in, begin, end)
		if !ok || got != c.want {
			t.Errorf("withoutIgnoreBlock(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	if _, ok := withoutIgnoreBlock("dist/\n"+rulerIgnoreA+"\n/x\n", rulerIgnoreA, rulerIgnoreZ); ok {
		t.Error("a block without its end marker was taken out")
	}
}
