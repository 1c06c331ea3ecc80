//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
)

// A reader's batch that lets its folders go after every target, keeping
// the way to the next, still answers each target exactly as Walk does.
func TestBatchReleaseIsWalk(t *testing.T) {
	for _, confirm := range []bool{false, true} {
		for _, bounded := range []bool{false, true} {
			t.Run(fmt.Sprintf("confirm=%v,bound=%v", confirm, bounded), func(t *testing.T) {
				a, b := hostileTree(t), hostileTree(t)
				opts := func(tr tree) Options {
					o := Options{Home: tr.p("home/.agent-switch"), Confirmed: confirm}
					if bounded {
						o.Boundary = tr.p("proj")
					}
					return o
				}
				batch := NewBatch(opts(a))
				defer batch.Close()
				for i, p := range batchPaths {
					bt, berr := batch.Target(a.p(p))
					wt, werr := Walk(b.p(p), opts(b))
					if got, want := describe(a.base, bt, berr), describe(b.base, wt, werr); got != want {
						t.Errorf("%s:\nbatch %s\nwalk  %s", p, got, want)
					}
					if bt != nil {
						bt.Close()
					}
					next := ""
					if i+1 < len(batchPaths) {
						next = a.p(batchPaths[i+1])
					}
					batch.Release(next)
					if batch.Held() != 0 {
						t.Fatalf("after Release, Held() = %d, want 0 (kept folders are not counted)", batch.Held())
					}
				}
			})
		}
	}
}

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
	for d := range batch.dirs {
		held = append(held, d)
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
