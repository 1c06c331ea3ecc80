package words

import "testing"

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 checks", 1: "1 check", 2: "2 checks", 11: "11 checks"} {
		if got := Plural(n, "check"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}
