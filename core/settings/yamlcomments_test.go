package settings

import "testing"

func TestMustKeepSeesLostComments(t *testing.T) {
	in := "# head\nrules:\n  tier: full # inline\n"
	f := decode(t, in)
	leaves, _ := flatten(f.doc)
	keep := mustKeep(f, []byte(in), dropsOf(leaves, []string{"rules.tier"}))
	// Dropping the line comment of the edited key is allowed...
	if lost := keep.lostIn(decode(t, "# head\nrules:\n  tier: minimal\n"), []byte("# head\nrules:\n  tier: minimal\n")); len(lost) != 0 {
		t.Fatalf("lost %q", lost)
	}
	// ...any other is not, whether the tree or the text lacks it.
	if lost := keep.lostIn(decode(t, "rules:\n  tier: full\n"), []byte("rules:\n  tier: full\n")); len(lost) != 2 || lost[0] != "# head" {
		t.Fatalf("lost %q", lost)
	}
}
