//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"os"
	"testing"
)

// reachedByIdentity checks that a file below profile/skills, a folder that
// is the located shared one by identity with no link on the way, reaches
// it, by a single walk and by a batch; and that an entry-only Place (what
// the guard compared before) or a sibling folder does not.
func reachedByIdentity(t *testing.T, tr tree, shared Place) {
	t.Helper()
	target := tr.p("profile/skills/review/SKILL.md")
	tg, err := Walk(target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	if got, ok := tg.Reaches([]Place{shared}); !ok || got.Path != shared.Path {
		t.Fatalf("a file in the shared folder, reached without a link: %v %+v", ok, got)
	}
	entry := shared
	entry.folder = false
	if _, ok := tg.Reaches([]Place{entry}); ok {
		t.Fatal("the entry alone matched: the test does not reach the folder by identity")
	}
	b := NewBatch(Options{Create: true, DirMode: 0o755, StageNew: true})
	defer b.Close()
	for path, want := range map[string]bool{
		target:                              true,
		tr.p("profile/skills/new/a.md"):     true, // a folder the batch would make inside it
		tr.p("profile/other/x.md"):          false,
		tr.p("profile/skills-not/SKILL.md"): false,
	} {
		bt, err := b.Target(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := bt.Reaches([]Place{shared}); ok != want {
			t.Errorf("%s: reaches %v, want %v", path, ok, want)
		}
	}
}

// A shared folder is known by its identity, not only as an entry of its
// parent: here it is located, then moved under the profile, so the walk
// meets the very directory by another entry and no link (as a bind mount
// shows it; place_linux_test.go mounts one where it may).
func TestReachesFolderByIdentity(t *testing.T) {
	tr := newTree(t)
	tr.dir("shared/skills/review", "profile/other", "profile/skills-not")
	shared, ok, err := Locate(tr.p("shared/skills"))
	if err != nil || !ok || !shared.folder {
		t.Fatalf("locate the shared folder: %v %v %+v", ok, err, shared)
	}
	if err := os.Rename(tr.p("shared/skills"), tr.p("profile/skills")); err != nil {
		t.Fatal(err)
	}
	reachedByIdentity(t, tr, shared)
}

// A file is located as an entry only: a file's inode reached by another
// name is a hard link, and a write there replaces that name alone.
func TestLocateFileIsNoFolder(t *testing.T) {
	tr := newTree(t)
	tr.file("shared/CLAUDE.md", "x", 0o644)
	p, ok, err := Locate(tr.p("shared/CLAUDE.md"))
	if err != nil || !ok || p.folder {
		t.Fatalf("%+v %v %v", p, ok, err)
	}
}
