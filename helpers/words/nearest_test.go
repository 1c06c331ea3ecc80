package words

import "testing"

func TestNearest(t *testing.T) {
	cands := []string{"apply", "import", "settings", "serve"}
	for s, want := range map[string]string{
		"aply":     "apply",    // one edit
		"setings":  "settings", // one edit in a long word
		"serv":     "serve",
		"xyz":      "", // nothing close
		"uninstal": "", // not a candidate, and far from all
		"":         "", // empty: every candidate is too far
		"importt":  "import",
	} {
		if got := Nearest(s, cands); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", s, got, want)
		}
	}
	if got := Nearest("ab", []string{"ax", "ay"}); got != "ax" {
		t.Errorf("a tie went to %q, want the earlier candidate ax", got)
	}
}
