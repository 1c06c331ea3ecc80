//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// hostileTree builds a project beside the companion's tree, with links of
// every kind on the way to the files a batch writes.
func hostileTree(t *testing.T) tree {
	tr := newTree(t)
	tr.dir("home/.agent-switch/claude/work", "home/.agent-switch/shared", "proj/.claude/rules", "proj/docs", "outside/dir")
	tr.link("home/.agent-switch/claude/work/config", "../../shared")
	tr.link("proj/.github", "../outside/dir")                // a directory out of the project
	tr.link("proj/.cursor", "docs")                          // a directory link inside it
	tr.link("proj/.claude/rules/b.md", "../../../outside/x") // a file out of it
	tr.link("proj/.claude/rules/c.md", "../../docs/c.md")    // a file inside it
	tr.link("proj/loop", "loop")                             // a loop
	tr.file("proj/.claude/rules/a.md", "mine\n", 0o644)
	tr.file("proj/.claude/rules/d.md/x", "a directory\n", 0o644)
	return tr
}

// batchPaths are targets in the order a projection meets them: each
// directory's siblings after it is held, subfolders of held folders.
var batchPaths = []string{
	"proj/.claude/rules/a.md", "proj/.claude/rules/b.md", "proj/.claude/rules/c.md", "proj/.claude/rules/d.md",
	"proj/.claude/rules/new.md", "proj/.claude/skills/s/SKILL.md", "proj/.claude/skills/s/b/c.md",
	"proj/.github/x.md", "proj/.github/sub/y.md", "proj/.cursor/rules/r.mdc", "proj/.cursor/rules/q.mdc",
	"proj/loop/f.md", "proj/nosuch/deeper/f.md", "proj/nosuch/deeper/g.md",
	"home/.agent-switch/claude/work/config/CLAUDE.md", "home/.agent-switch/claude/work/config/sub/x.md",
	"home/.agent-switch/claude/work/other/x.md", "outside/dir/z.md",
	// Below a folder already found missing: missing too, without a walk.
	"proj/nosuch/h.md", "proj/nosuch/deeper/more/f.md", "proj/.github/new/a.md", "proj/.github/new/deeper/b.md",
	"home/.agent-switch/claude/work/config/new/x.md", "home/.agent-switch/claude/work/config/new/a/b.md",
}

func describe(base string, t *Target, err error) string {
	if err != nil {
		return "error " + strings.ReplaceAll(fmt.Sprintf("%T %v", err, err), base, "B")
	}
	defer t.Close()
	// The chain is what shared sources are matched on: the same entries.
	var chain []string
	for _, c := range t.places() {
		name := c.Name
		if c.Path == base {
			name = "B" // the two trees' own folders differ in name alone
		}
		chain = append(chain, c.Path+"#"+name)
	}
	return strings.ReplaceAll(fmt.Sprintf("dir=%s name=%s shared=%s missing=%v isdir=%v chain=%v", t.Dir, t.Name, t.Shared, t.Missing, t.IsDir, chain), base, "B")
}

// A batch answers every target exactly as Walk does: the same directory,
// the same links refused, blocked or followed, the same folders created.
// With release, it lets its folders go after every target as a reader
// does, keeping the way to the next (Release is a no-op once it made one).
func TestBatchIsWalk(t *testing.T) {
	for _, create := range []bool{false, true} {
		for _, confirm := range []bool{false, true} {
			for _, bounded := range []bool{false, true} {
				for _, release := range []bool{false, true} {
					t.Run(fmt.Sprintf("create=%v,confirm=%v,bound=%v,release=%v", create, confirm, bounded, release), func(t *testing.T) {
						batchIsWalk(t, create, confirm, bounded, release)
					})
				}
			}
		}
	}
}

func batchIsWalk(t *testing.T, create, confirm, bounded, release bool) {
	a, b := hostileTree(t), hostileTree(t)
	opts := func(tr tree) Options {
		o := Options{Home: tr.p("home/.agent-switch"), Confirmed: confirm, Create: create, DirMode: 0o755}
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
		if !release {
			continue
		}
		if bt != nil {
			bt.Close()
		}
		next := ""
		if i+1 < len(batchPaths) {
			next = a.p(batchPaths[i+1])
		}
		batch.Release(next)
		if !create && batch.Held() != 0 {
			t.Fatalf("after Release, Held() = %d, want 0 (kept folders are not counted)", batch.Held())
		}
	}
	if got, want := listing(t, a), listing(t, b); got != want {
		t.Errorf("the batch made other folders:\nbatch %s\nwalk  %s", got, want)
	}
}

func listing(t *testing.T, tr tree) string {
	var out []string
	for _, d := range []string{"proj", "proj/.claude", "proj/.claude/skills/s", "outside/dir", "proj/docs", "home/.agent-switch/shared", "home/.agent-switch/claude/work"} {
		es, _ := os.ReadDir(tr.p(d))
		for _, e := range es {
			out = append(out, d+"/"+e.Name())
		}
	}
	return strings.Join(out, " ")
}

// The directory a batch checked is the one it writes: a link swapped in
// for a held folder afterwards does not redirect a later file.
func TestBatchHeldDirectorySwapped(t *testing.T) {
	tr := newTree(t)
	tr.dir("proj/.claude/rules", "outside")
	batch := NewBatch(Options{Boundary: tr.p("proj"), Create: true, DirMode: 0o755})
	defer batch.Close()
	first, err := batch.Target(tr.p("proj/.claude/rules/a.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if err := os.Rename(tr.p("proj/.claude/rules"), tr.p("proj/.claude/moved")); err != nil {
		t.Fatal(err)
	}
	tr.link("proj/.claude/rules", "../../outside")
	second, err := batch.Target(tr.p("proj/.claude/rules/b.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if err := second.Write([]byte("x\n"), Perm{New: 0o644}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tr.p("outside/b.md")); err == nil {
		t.Fatal("the write went through the link swapped in")
	}
	if got := tr.read("proj/.claude/moved/b.md"); got != "x\n" {
		t.Fatalf("the held folder got %q", got)
	}
	tr.mustLink("proj/.claude/rules", "../../outside")
	noTemps(t, tr.base)
}
