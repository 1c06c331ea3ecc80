package content

import (
	"strings"
	"testing"
)

func TestGlobMatch(t *testing.T) {
	cases := []struct {
		pattern, path string
		want          bool
	}{
		{"**/*.ts", "a.ts", true}, // ** is zero or more segments
		{"**/*.ts", "src/deep/a.ts", true},
		{"**/*.ts", "src/a.tsx", false},
		{"*.md", "README.md", true}, // anchored at the root
		{"*.md", "docs/README.md", false},
		{"src/*.go", "src/a.go", true},
		{"src/*.go", "src/x/a.go", false}, // * stays in a segment
		{"src/**/*.go", "src/a.go", true},
		{"src/**/*.go", "src/x/y/a.go", true},
		{"src/**/*.go", "lib/a.go", false},
		{"src/**", "src/x/y", true},
		{"src/**", "srcx/y", false},
		{"**", "anything/at/all", true},
		{"src/**/*.{ts,tsx}", "src/ui/a.tsx", true},
		{"src/**/*.{ts,tsx}", "src/ui/a.js", false},
		{"{api,web}/**/{a,b{c,d}}.go", "web/x/bd.go", true},
		{"{api,web}/**/{a,b{c,d}}.go", "web/x/be.go", false},
		{"file?.txt", "file1.txt", true},
		{"file?.txt", "file10.txt", false},
		{"[!a]*.go", "b.go", true},
		{"[!a]*.go", "a.go", false},
		{"*", ".env", true}, // dots are not special
		{"./src/*.go", "src/a.go", true},
		{"src/*.go", "./src/a.go", true},
		{"src/[", "src/[", false}, // malformed: matches nothing
		{"**/test/**", "a/test/b.go", true},
		{"**/test/**", "a/testing/b.go", false},
	}
	for _, c := range cases {
		if got := GlobMatch(c.pattern, c.path); got != c.want {
			t.Errorf("GlobMatch(%q, %q) = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}

// A hostile repository's rule with many ** segments, against a deep path
// that never matches, must not backtrack exponentially (the test would
// not finish).
func TestGlobMatchManyDoubleStars(t *testing.T) {
	pattern := strings.Repeat("**/a/", 30) + "b"
	path := strings.Repeat("a/", 200) + "c"
	if GlobMatch(pattern, path) {
		t.Error("matched")
	}
	if !GlobMatch(pattern, strings.Repeat("a/", 40)+"b") {
		t.Error("did not match")
	}
}

// Braces after braces multiply: past a bound the pattern is malformed
// and matches nothing, instead of expanding to a billion patterns.
func TestGlobMatchBraceBomb(t *testing.T) {
	if GlobMatch(strings.Repeat("{a,b}", 30), strings.Repeat("a", 30)) {
		t.Error("a brace bomb matched")
	}
	if !GlobMatch(strings.Repeat("{a,b}", 8), strings.Repeat("b", 8)) {
		t.Error("256 alternatives must still match")
	}
}

func TestAppliesTo(t *testing.T) {
	always := &Item{Kind: KindRule, Name: "always"}
	scoped := &Item{Kind: KindRule, Name: "go", Globs: []string{"**/*.go", "go.mod"}}
	if !always.AppliesTo("x/y.py") {
		t.Error("a rule without globs applies everywhere")
	}
	if !scoped.AppliesTo("go.mod") || !scoped.AppliesTo("cmd/main.go") || scoped.AppliesTo("web/app.js") {
		t.Error("scoped rule matches the wrong paths")
	}
}

func FuzzGlobMatch(f *testing.F) {
	f.Add("src/**/*.{ts,tsx}", "src/a/b.ts")
	f.Add("{{{,}", "a")
	f.Fuzz(func(t *testing.T, pattern, path string) {
		GlobMatch(pattern, path) // never panics, never hangs
	})
}
