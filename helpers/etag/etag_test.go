package etag

import "testing"

// If-Match compares strongly (a weak tag never matches), If-None-Match
// weakly; a list matches when one of its tags does; text that is no tag
// ends the list.
func TestMatches(t *testing.T) {
	cur := `"abc"`
	for _, c := range []struct {
		h          string
		match, non bool
	}{
		{`"abc"`, true, true},
		{`W/"abc"`, false, true},
		{`"x", "abc"`, true, true},
		{`"x"`, false, false},
		{`abc, "abc"`, false, false},
		{`"abc`, false, false},
		{``, false, false},
	} {
		if got := Matches(c.h, cur); got != c.match {
			t.Errorf("Matches(%q) = %v, want %v", c.h, got, c.match)
		}
		if got := NoneMatches(c.h, cur); got != c.non {
			t.Errorf("NoneMatches(%q) = %v, want %v", c.h, got, c.non)
		}
	}
	if !NoneMatches("*", cur) || NoneMatches("*") {
		t.Error(`If-None-Match: * matches any current tag, and only a current one`)
	}
}
