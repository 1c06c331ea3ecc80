//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// homeGuard is a guard whose companion home is home.
type homeGuard struct {
	noGuard
	home string
}

func (g homeGuard) Home() string { return g.home }

// A folder the Files holds between walks, swapped for a link after one
// walk and before the next (itself or a folder above it), is walked as a
// fresh walk would walk it: a link out of the project is refused, a link
// inside the companion's tree blocks the write, and nothing is written
// through the link or into the folder moved away.
func TestHeldFolderSwappedForLink(t *testing.T) {
	cases := []struct {
		name, held, swapped, to string
		within                  bool
		want                    any
	}{
		{"project folder", "proj/.claude/rules", "proj/.claude/rules", "outside/rules", true, new(*OutsideError)},
		{"project ancestor", "proj/.claude/rules", "proj/.claude", "outside", true, new(*OutsideError)},
		{"companion folder", "home/.agent-switch/p1/config/rules", "home/.agent-switch/p1/config/rules", "home/.agent-switch/shared/rules", false, new(*BlockedError)},
		{"companion ancestor", "home/.agent-switch/p1/config/rules", "home/.agent-switch/p1/config", "home/.agent-switch/shared", false, new(*BlockedError)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := newTree(t)
			tr.dir("proj", c.held, filepath.Join(c.to, "rules"), c.to)
			s := &Files{Fs: afero.NewOsFs(), Now: time.Now, Guard: homeGuard{home: tr.p("home/.agent-switch")}}
			defer s.Hold()()
			o := WriteOptions{}
			if c.within {
				o = WriteOptions{Within: tr.p("proj"), Whole: true}
			}
			if err := s.WriteAtomicOpts(tr.p(c.held+"/a.md"), o, []byte("a\n")); err != nil {
				t.Fatal(err)
			}
			if s.held.n == 0 {
				t.Fatal("the first write kept no folder")
			}
			if err := os.Rename(tr.p(c.swapped), tr.p(c.swapped+".moved")); err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(filepath.Dir(tr.p(c.swapped)), tr.p(c.to))
			tr.link(c.swapped, rel)
			err := s.WriteAtomicOpts(tr.p(c.held+"/b.md"), o, []byte("b\n"))
			if err == nil || !errors.As(err, c.want) {
				t.Fatalf("a write after the swap: %v, want %T", err, c.want)
			}
			for _, p := range []string{filepath.Join(c.to, "b.md"), filepath.Join(c.to, "rules/b.md"), c.swapped + ".moved/b.md", c.swapped + ".moved/rules/b.md"} {
				if _, err := os.Lstat(tr.p(p)); err == nil {
					t.Errorf("%s was written after the swap", p)
				}
			}
			tr.mustLink(c.swapped, rel)
			noTemps(t, tr.base)
		})
	}
}

// The held folders stay few whatever the number of folders walked, and
// the end of the hold lets them all go.
func TestHeldFoldersBounded(t *testing.T) {
	tr := newTree(t)
	s := &Files{Fs: afero.NewOsFs(), Now: time.Now}
	done := s.Hold()
	before := openFDs(t)
	for i := range 40 {
		p := tr.p(filepath.Join("proj", string(rune('a'+i%20)), string(rune('a'+i/20)), "f.md"))
		if err := s.WriteAtomicOpts(p, WriteOptions{}, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if n := openFDs(t) - before; n > heldMax {
		t.Errorf("%d descriptors open after 40 writes, want at most %d", n, heldMax)
	}
	if n := s.held.n; n == 0 || n > heldMax {
		t.Errorf("%d folders held, want 1 to %d", n, heldMax)
	}
	done()
	if n := openFDs(t) - before; n > 0 {
		t.Errorf("%d descriptors still open after the hold ended", n)
	}
	// Without a hold, walks keep nothing.
	if err := s.WriteAtomicOpts(tr.p("proj/a/a/f.md"), WriteOptions{}, []byte("y")); err != nil {
		t.Fatal(err)
	}
	if n := openFDs(t) - before; n > 0 || s.held.n != 0 {
		t.Errorf("%d descriptors, %d folders held after a write without a hold", n, s.held.n)
	}
}

// A walk that starts from held folders holds what a walk from "/" holds:
// the same target, the same chain of directories.
func TestHeldWalkIsWalk(t *testing.T) {
	tr := newTree(t)
	tr.file("proj/a/b/f.md", "f\n", 0o644)
	s := &Files{Fs: afero.NewOsFs(), Now: time.Now}
	defer s.Hold()()
	o := s.walkOptions(false, tr.p("proj"))
	for range 3 {
		held, err := Walk(tr.p("proj/a/b/f.md"), o)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := Walk(tr.p("proj/a/b/f.md"), Options{Boundary: tr.p("proj")})
		if err != nil {
			t.Fatal(err)
		}
		if held.Dir != fresh.Dir || held.Name != fresh.Name || held.Place() != fresh.Place() || len(held.chain) != len(fresh.chain) {
			t.Fatalf("held walk %+v, fresh walk %+v", held, fresh)
		}
		for i := range held.chain {
			if !held.chain[i].Same(fresh.chain[i]) {
				t.Fatalf("chain %d: %+v against %+v", i, held.chain[i], fresh.chain[i])
			}
		}
		held.Close()
		fresh.Close()
	}
	if s.held.n == 0 {
		t.Fatal("nothing held after three walks")
	}
}

func openFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/dev/fd")
	if err != nil {
		t.Skipf("no /dev/fd: %v", err)
	}
	return len(entries)
}

// What a run learned once (the companion home missing) is forgotten when
// the run ends: the next run finds the home made since, and a link in it
// blocks the write.
func TestHeldIdentitiesLastOneRun(t *testing.T) {
	tr := newTree(t)
	tr.dir("proj", "shared")
	s := &Files{Fs: afero.NewOsFs(), Now: time.Now, Guard: homeGuard{home: tr.p("home/.agent-switch")}}
	done := s.Hold()
	if err := s.WriteAtomicOpts(tr.p("proj/a.md"), WriteOptions{}, []byte("a\n")); err != nil {
		t.Fatal(err)
	}
	done()
	tr.link("home/.agent-switch/p1/config", "../../../shared")
	defer s.Hold()()
	err := s.WriteAtomicOpts(tr.p("home/.agent-switch/p1/config/b.md"), WriteOptions{}, []byte("b\n"))
	var be *BlockedError
	if !errors.As(err, &be) {
		t.Fatalf("a write through a link in the companion home made after the last run: %v, want it blocked", err)
	}
	if _, err := os.Lstat(tr.p("shared/b.md")); err == nil {
		t.Fatal("written through the link")
	}
}

// Locate from held folders finds the place a walk from "/" finds: a link
// followed to its file, a folder with its own identity.
func TestHeldLocateIsLocate(t *testing.T) {
	tr := newTree(t)
	tr.file("proj/AGENTS.md", "a\n", 0o644)
	tr.link("proj/CLAUDE.md", "AGENTS.md")
	tr.dir("proj/docs")
	s := &Files{Fs: afero.NewOsFs(), Now: time.Now}
	defer s.Hold()()
	for range 2 {
		for _, rel := range []string{"proj/CLAUDE.md", "proj/AGENTS.md", "proj/docs", "proj/none.md"} {
			got, gok, gerr := s.Locate(tr.p(rel))
			want, wok, werr := Locate(tr.p(rel))
			if !got.Same(want) && (got.Valid() || want.Valid()) || gok != wok || (gerr == nil) != (werr == nil) || got.folder != want.folder || got.fdev != want.fdev || got.fino != want.fino {
				t.Errorf("%s: %+v %v %v, from /: %+v %v %v", rel, got, gok, gerr, want, wok, werr)
			}
		}
	}
	if s.held.n == 0 {
		t.Fatal("nothing held")
	}
}
