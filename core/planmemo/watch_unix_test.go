//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package planmemo

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/fsys"
)

// The stamps a walk takes while it lists a folder are the stamps Save
// would take of each path: the same device, inode, size, mode and times.
func TestWalkStampIsLstamp(t *testing.T) {
	m := coretest.New(t)
	root := filepath.Join(m.Dir, "src")
	for _, p := range []string{"rules/a.md", "rules/deep/b.md", "skills/s/SKILL.md", "top.md"} {
		coretest.WriteFile(t, filepath.Join(root, p), "x\n")
	}
	if err := os.Symlink("top.md", filepath.Join(root, "link.md")); err != nil {
		t.Fatal(err)
	}
	var w Watch
	w.Below(root, 2)
	stamped := 0
	for _, p := range w.paths {
		f := w.files[p]
		if !f.stamped {
			continue
		}
		stamped++
		st, missing, ok := fsys.Lstamp(p)
		if !ok || missing || st != f.st {
			t.Errorf("%s: walk stamped %+v, Lstamp says %+v", p, f.st, st)
		}
	}
	// every path but the root and what lies below depth 2
	if want := len(w.paths) - 1; stamped != want {
		t.Fatalf("%d of %d paths stamped by the walk, want %d", stamped, len(w.paths), want)
	}
	var tree Watch
	tree.Tree(root)
	if !tree.bad {
		t.Fatal("a link in a source tree was watched")
	}
}

// A source changed after the walk stamped it and before Save is kept with
// the older stamp: the next run's stamp differs and it plans.
func TestWalkStampBeforeChange(t *testing.T) {
	m := coretest.New(t)
	root := filepath.Join(m.Dir, "src")
	src := filepath.Join(root, "rule.md")
	coretest.WriteFile(t, src, "a rule\n")
	time.Sleep(60 * time.Millisecond) // stamps older than the racy window
	start := time.Now()
	var w Watch
	w.Tree(root)
	coretest.WriteFile(t, src, "b rule\n") // same size, after the walk
	path, key := Path(m.Sys, "test\x00"+m.Dir), Key("k")
	Save(m.Sys, path, key, &w, start, []byte("{}"))
	if _, ok := Load(m.Sys, path, func() string { return key }); ok {
		t.Fatal("a memo was given for a source changed after it was stamped")
	}
}
