//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func stageAll(t *testing.T, b *Batch, files map[string]string) []*Staged {
	t.Helper()
	var out []*Staged
	for path, data := range files {
		tg, err := b.Target(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := tg.Stage([]byte(data), Perm{New: 0o644})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// A folder the batch makes is nowhere to be seen until Publish, then
// there whole, with the folders below it; a folder that existed gets its
// file by the usual rename.
func TestStagedFolderAppearsWhole(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "old"), 0o755)
	b := NewBatch(Options{Create: true, DirMode: 0o755, StageNew: true})
	defer b.Close()
	staged := stageAll(t, b, map[string]string{
		filepath.Join(dir, "new", "a.md"):        "a",
		filepath.Join(dir, "new", "sub", "b.md"): "b",
		filepath.Join(dir, "old", "c.md"):        "c",
	})
	got := names(t, dir)
	if len(got) != 2 || got[0] == "new" || !isTempOf(got[0], "new") {
		t.Fatalf("before Publish: %v", got)
	}
	// A folder below the staged one is hidden with it: made in place, and
	// it appears with it (not after it, under a name of its own).
	if in := names(t, filepath.Join(dir, got[0])); !slices.Equal(in, []string{"a.md", "sub"}) {
		t.Fatalf("in the staged folder before Publish: %v", in)
	}
	for _, s := range staged {
		if err := s.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); err == nil {
		t.Fatal("the new folder shows before Publish")
	}
	if err := b.Publish(); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"new/a.md": "a", "new/sub/b.md": "b", "old/c.md": "c"} {
		if got, _ := os.ReadFile(filepath.Join(dir, path)); string(got) != want {
			t.Fatalf("%s: %q", path, got)
		}
	}
	if got := names(t, dir); len(got) != 2 || got[0] != "new" || got[1] != "old" {
		t.Fatalf("after Publish: %v", got)
	}
}

// Whatever takes the folder's name before Publish stays as it is; the
// staged folder is removed when the batch closes.
func TestPublishRefusesWhatAppeared(t *testing.T) {
	for _, appear := range []string{"dir", "file", "link"} {
		t.Run(appear, func(t *testing.T) {
			dir := t.TempDir()
			b := NewBatch(Options{Create: true, DirMode: 0o755, StageNew: true})
			stageAll(t, b, map[string]string{filepath.Join(dir, "new", "a.md"): "a"})
			path := filepath.Join(dir, "new")
			switch appear {
			case "dir":
				os.Mkdir(path, 0o755)
			case "file":
				os.WriteFile(path, []byte("a person's"), 0o644)
			case "link":
				os.Symlink(dir, path)
			}
			var ce *ChangedError
			if err := b.Publish(); !errors.As(err, &ce) || !strings.Contains(err.Error(), "appeared") {
				t.Fatalf("publish over a new %s: %v", appear, err)
			}
			b.Close()
			if got := names(t, dir); len(got) != 1 || got[0] != "new" {
				t.Fatalf("left: %v", got)
			}
			if appear == "dir" && len(names(t, path)) != 0 {
				t.Fatal("written into the folder that appeared")
			}
		})
	}
}

// A folder a killed run left under a temporary name is removed by the
// next batch that makes that name, however young; one that holds a link
// keeps the link (no link is ever removed), and so stays with it. A
// user's folder that only looks like one stays whole.
func TestStaleStagedFolderRemoved(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "keep"), []byte("keep"), 0o644)
	stale := filepath.Join(dir, TempName("new", 0x0badc0de))
	os.MkdirAll(filepath.Join(stale, "deep"), 0o755)
	os.WriteFile(filepath.Join(stale, "deep", "x.md"), []byte("x"), 0o644)
	linked := filepath.Join(dir, TempName("new", 0x0ddba11))
	os.MkdirAll(linked, 0o755)
	os.WriteFile(filepath.Join(linked, "y.md"), []byte("y"), 0o644)
	os.Symlink(outside, filepath.Join(linked, "out"))
	os.WriteFile(filepath.Join(dir, TempName("other", 0x0badc0de)), []byte("not ours to judge here"), 0o644)
	for _, user := range []string{".new.tmp-backup", ".new.tmp-0badc0de", ".charter-tmp-new-backup"} {
		os.MkdirAll(filepath.Join(dir, user), 0o755)
		os.WriteFile(filepath.Join(dir, user, "mine.md"), []byte("a user's"), 0o644)
	}
	b := NewBatch(Options{Create: true, DirMode: 0o755, StageNew: true})
	defer b.Close()
	for _, s := range stageAll(t, b, map[string]string{filepath.Join(dir, "new", "a.md"): "a"}) {
		s.Commit()
	}
	if err := b.Publish(); err != nil {
		t.Fatal(err)
	}
	want := []string{".charter-tmp-new-00ddba11", ".charter-tmp-new-backup", ".charter-tmp-other-0badc0de", ".new.tmp-0badc0de", ".new.tmp-backup", "new"}
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Fatalf("left: %v\nwant %v", got, want)
	}
	for _, user := range []string{".new.tmp-backup", ".new.tmp-0badc0de", ".charter-tmp-new-backup"} {
		if got, _ := os.ReadFile(filepath.Join(dir, user, "mine.md")); string(got) != "a user's" {
			t.Fatalf("%s: the user's folder lost its file", user)
		}
	}
	if got := names(t, linked); len(got) != 1 || got[0] != "out" {
		t.Fatalf("the folder with a link holds %v", got)
	}
	if got, _ := os.ReadFile(filepath.Join(outside, "keep")); string(got) != "keep" {
		t.Fatal("removed through a link")
	}
}
