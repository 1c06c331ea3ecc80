package fsys

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestVisited(t *testing.T) {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(d, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ln := func(target, p string) {
		if err := os.Symlink(target, filepath.Join(d, p)); err != nil {
			t.Fatal(err)
		}
	}
	mk("a/b")
	mk("x/y")
	ln("a/b", "rel")                 // relative
	ln(filepath.Join(d, "x"), "abs") // absolute
	ln("rel", "chain")               // a link to a link
	ln("../x/y", "a/up")             // up and over
	ln("loop2", "loop1")
	ln("loop1", "loop2")
	ancestors := func(p string) []string {
		var out []string
		for q := filepath.Dir(p); ; q = filepath.Dir(q) {
			out = append([]string{q}, out...)
			if q == "/" {
				return out
			}
		}
	}
	base := ancestors(filepath.Join(d, "z"))
	with := func(extra ...string) []string {
		var out []string
		for _, e := range extra {
			out = append(out, filepath.Join(d, e))
		}
		return append(slices.Clone(base), out...)
	}
	tests := []struct {
		path string
		want []string
	}{
		{"a/b/file", with("a", "a/b")},
		{"a/b", with("a", "a/b")},
		{"missing/deeper/file", with()},
		{"rel/file", with("a", "a/b")},
		{"abs/y", with("x", "x/y")},
		{"chain/f", with("a", "a/b")},
		{"a/up/f", with("a", "x", "x/y")},
	}
	for _, tc := range tests {
		got, ok := visited(filepath.Join(d, tc.path))
		if !ok || !slices.Equal(got, tc.want) {
			t.Errorf("visited(%s) = %v %v\nwant %v", tc.path, got, ok, tc.want)
		}
	}
	if _, ok := visited(filepath.Join(d, "loop1/f")); ok {
		t.Error("a link loop is watchable")
	}
	if _, ok := visited("relative/path"); ok {
		t.Error("a relative path is watchable")
	}
}
