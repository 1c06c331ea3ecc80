//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/afero"
)

// A Reader lists a folder it walked through the folder's handle: the same
// entries (names, sizes, modes, links not followed), bounded the same way,
// as the listing by path.
func TestReaderListIsListDir(t *testing.T) {
	tr := newTree(t)
	tr.file("proj/rules/b.md", "bb", 0o644)
	tr.file("proj/rules/a.md", "a", 0o600)
	tr.file("proj/rules/run.sh", "#!/bin/sh\n", 0o755)
	tr.dir("proj/rules/sub")
	tr.link("proj/rules/l.md", "a.md")
	s := &Files{Fs: afero.NewOsFs()}
	dir := tr.p("proj/rules")
	for _, max := range []int{0, 2, 100} {
		r := s.Reader(tr.p("proj"))
		got, notDir, err := r.ListMax(dir, max)
		held := r.b.dirs[dir] != nil && !r.b.dirs[dir].Missing
		r.Close()
		if err != nil || notDir || !held {
			t.Fatalf("max %d: %v %v, held %v", max, notDir, err, held)
		}
		want, _, err := s.listDir(tr.p("proj"), dir, max)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || max == 2 && len(got) != 3 {
			t.Fatalf("max %d: %d entries, by path %d", max, len(got), len(want))
		}
		if max == 2 {
			continue // unsorted: more than max
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.Name() != w.Name() || g.Size() != w.Size() || g.Mode() != w.Mode() || !g.ModTime().Equal(w.ModTime()) {
				t.Errorf("max %d: %s %d %v, by path %s %d %v", max, g.Name(), g.Size(), g.Mode(), w.Name(), w.Size(), w.Mode())
			}
		}
	}
	// A missing folder is nil, as by path.
	r := s.Reader(tr.p("proj"))
	defer r.Close()
	if got, notDir, err := r.ListMax(tr.p("proj/none"), 0); got != nil || notDir || err != nil {
		t.Fatalf("a missing folder: %v %v %v", got, notDir, err)
	}
	if _, err := os.Lstat(filepath.Join(dir, ".probe")); err == nil {
		t.Fatal("the listing left a probe")
	}
}
