package fsys

import (
	"github.com/spf13/afero"
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
		ents, ok := visited(filepath.Join(d, tc.path))
		var got []string
		for _, e := range ents {
			if !slices.Contains(got, e.dir) {
				got = append(got, e.dir)
			}
		}
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

// An ancestor's other entries change nothing; the entry a lookup uses,
// anything in a watched directory, and the directory's own removal do.
func TestWatchNames(t *testing.T) {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	leaf := filepath.Join(d, "home", "conf", "rules")
	if err := os.MkdirAll(leaf, 0o755); err != nil {
		t.Fatal(err)
	}
	w := NewDirWatch(afero.NewOsFs())
	if w == nil {
		t.Fatal("no inotify on linux")
	}
	defer w.Close()
	if !w.Add([]string{leaf}) {
		t.Fatal("cannot watch")
	}
	write := func(p string) func() error {
		return func() error { return os.WriteFile(filepath.Join(d, p), []byte("x"), 0o644) }
	}
	steps := []struct {
		name    string
		change  func() error
		matters bool
	}{
		{"a neighbour in the home folder", write("home/.history"), false},
		{"a neighbour of the watched folder", write("home/conf/other"), false},
		{"a file in the watched folder", write("home/conf/rules/a.md"), true},
		{"the same file again", write("home/conf/rules/a.md"), true},
		{"a neighbour's edit", write("home/.history"), false},
		{"the used entry renamed", func() error { return os.Rename(filepath.Join(d, "home/conf"), filepath.Join(d, "home/conf2")) }, true},
	}
	gen := w.Generation()
	for _, s := range steps {
		if err := s.change(); err != nil {
			t.Fatal(err)
		}
		next := w.Generation()
		if (next != gen) != s.matters {
			t.Errorf("%s: generation changed %v, want %v", s.name, next != gen, s.matters)
		}
		gen = next
	}
}
