//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"path/filepath"
	"slices"
	"testing"
)

// Release keeps open exactly the folders on the way to the next file, so
// a long list of files is not walked again from "/" every few files.
func TestBatchReleaseKeepsTheWay(t *testing.T) {
	tr := hostileTree(t)
	batch := NewBatch(Options{Home: tr.p("home/.agent-switch")})
	defer batch.Close()
	for _, p := range []string{"proj/.claude/skills/s/SKILL.md", "proj/docs/a.md", "outside/dir/f"} {
		if tg, err := batch.Target(tr.p(p)); err == nil {
			tg.Close()
		}
	}
	next := tr.p("proj/docs/b.md")
	var want, off []string
	for d, tg := range batch.dirs {
		if onTheWay(d, filepath.Dir(next)) && !tg.Missing {
			want = append(want, d)
		} else {
			off = append(off, d)
		}
	}
	if len(off) == 0 || !slices.Contains(want, "/") || !slices.Contains(want, tr.p("proj/docs")) {
		t.Fatalf("the batch held %q and %q: the test needs folders on and off the way", want, off)
	}
	batch.Release(next)
	var held []string
	for d, tg := range batch.dirs {
		if !tg.Missing {
			held = append(held, d)
		}
	}
	slices.Sort(held)
	slices.Sort(want)
	if !slices.Equal(held, want) {
		t.Fatalf("held after Release:\n%q\nwant the way to the next file:\n%q", held, want)
	}
	batch.Release("")
	if len(batch.dirs) != 0 {
		t.Fatalf("Release(\"\") kept %d folders", len(batch.dirs))
	}
}

// A folder the batch found missing holds no descriptor: Release(next)
// keeps its verdict (not counted as held), Release("") forgets it.
func TestBatchReleaseKeepsMissing(t *testing.T) {
	tr := newTree(t)
	tr.dir("proj/docs")
	batch := NewBatch(Options{})
	defer batch.Close()
	tg, err := batch.Target(tr.p("proj/none/x.md"))
	if err != nil || !tg.Missing {
		t.Fatalf("a file in a missing folder: %+v, %v", tg, err)
	}
	batch.Release(tr.p("proj/docs/b.md"))
	if d := batch.dirs[tr.p("proj/none")]; d == nil || !d.Missing || batch.Held() != 0 {
		t.Fatalf("after Release(next): %+v, %d held", d, batch.Held())
	}
	batch.Release("")
	if len(batch.dirs) != 0 {
		t.Fatalf("Release(\"\") kept %d folders", len(batch.dirs))
	}
}

// split is filepath.Dir and filepath.Base of a clean absolute path.
func TestSplitIsDirBase(t *testing.T) {
	for _, p := range []string{"/", "/a", "/a/b", "/a/b/c.md", "/.x/..y"} {
		dir, name := split(p)
		if dir != filepath.Dir(p) || name != filepath.Base(p) {
			t.Errorf("split(%q) = %q, %q; want %q, %q", p, dir, name, filepath.Dir(p), filepath.Base(p))
		}
	}
}

// BenchmarkBatchFolder is a reader's look-up of held folders, the path
// cleaned and split each time.
func BenchmarkBatchFolder(b *testing.B) {
	tr := newTree(b)
	tr.dir("proj/.claude/skills/s/b")
	batch := NewBatch(Options{})
	defer batch.Close()
	p := tr.p("proj/.claude/skills/s/b/c.md")
	b.ReportAllocs()
	for b.Loop() {
		if d, _, _ := batch.Folder(p); d == nil {
			b.Fatal("no folder")
		}
	}
}
