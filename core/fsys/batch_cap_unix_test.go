//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/afero"
	"golang.org/x/sys/unix"
)

// A folder a bounded batch let go between staging and rename is opened
// again by identity: replaced meanwhile (by a link or another folder),
// nothing is renamed into the replacement nor written through the link,
// and the rename reports the folder changed. The folders not replaced are
// opened again and written.
func TestLetGoFolderReplacedIsRefused(t *testing.T) {
	for _, with := range []string{"link", "folder"} {
		t.Run(with, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			victim := filepath.Join(dir, "victim")
			for _, d := range []string{"a", "b", "c", "victim"} {
				os.Mkdir(filepath.Join(dir, d), 0o755)
			}
			b := NewBatch(Options{Create: true, DirMode: 0o755})
			b.limit = 1
			defer b.Close()
			var staged []*Staged
			for _, d := range []string{"a", "b", "c"} {
				tg, err := b.Target(filepath.Join(dir, d, "f.md"))
				if err != nil {
					t.Fatal(err)
				}
				s, err := tg.Stage([]byte("new "+d), Perm{New: 0o644})
				tg.release()
				if err != nil {
					t.Fatal(err)
				}
				staged = append(staged, s)
			}
			if a := staged[0].t.held; a.fd >= 0 {
				t.Fatalf("a is still held (fd %d): the bound let nothing go", a.fd)
			}
			a := filepath.Join(dir, "a")
			if err := os.Rename(a, filepath.Join(dir, "a-away")); err != nil {
				t.Fatal(err)
			}
			if with == "link" {
				err = os.Symlink(victim, a)
			} else {
				err = os.Mkdir(a, 0o755)
			}
			if err != nil {
				t.Fatal(err)
			}
			var changed *ChangedError
			if err := staged[0].Commit(); !errors.As(err, &changed) {
				t.Fatalf("commit into a replaced folder: %v", err)
			}
			for _, s := range staged[1:] {
				if err := s.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			for _, p := range []string{"victim/f.md", "a/f.md", "a-away/f.md"} {
				if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
					t.Errorf("%s was written", p)
				}
			}
			for _, d := range []string{"b", "c"} {
				if got, _ := os.ReadFile(filepath.Join(dir, d, "f.md")); string(got) != "new "+d {
					t.Errorf("%s/f.md: %q", d, got)
				}
			}
			if fi, err := os.Lstat(a); err != nil || (with == "link") != (fi.Mode()&os.ModeSymlink != 0) {
				t.Errorf("the replacement was touched: %v %v", fi, err)
			}
			if b.reopens == 0 {
				t.Error("no folder was opened again")
			}
		})
	}
}

// A Stager with far more folders than it may hold, new and existing,
// writes every file through folders let go and opened again, from
// several goroutines (run it with -race), and each file's stamp is the
// one the file has once everything is in place.
func TestStagerManyFoldersStamps(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := &Files{Fs: afero.NewOsFs()}
	g, err := s.Stager(WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	var files []File
	for i := range 40 {
		old := filepath.Join(dir, "old", fmt.Sprint(i))
		os.MkdirAll(old, 0o755)
		os.WriteFile(filepath.Join(old, "f.md"), []byte("before"), 0o644)
		for _, p := range []string{"old/%d/f.md", "old/%d/g.md", "new/%d/f.md", "new/%d/sub/g.md"} {
			path := filepath.Join(dir, fmt.Sprintf(p, i))
			files = append(files, File{Path: path, Mode: 0o644, Data: []byte(path)})
		}
	}
	before := time.Now()
	staged, err := g.StageAll(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	if err := Parallel(len(staged), func(i int) error { return staged[i].Commit() }); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	if err := g.Publish(); err != nil {
		t.Fatal(err)
	}
	reopens := 0
	for _, b := range g.batches {
		reopens += b.reopens
	}
	if reopens == 0 {
		t.Fatal("no folder was let go and opened again")
	}
	for i, f := range files {
		if got, _ := os.ReadFile(f.Path); string(got) != string(f.Data) {
			t.Fatalf("%s: %q", f.Path, got)
		}
		var st unix.Stat_t
		if err := unix.Lstat(f.Path, &st); err != nil {
			t.Fatal(err)
		}
		got, taken, ok := staged[i].Stamp()
		if !ok || got != stampOf(&st) {
			t.Fatalf("%s: stamp %+v (%v), want %+v", f.Path, got, ok, stampOf(&st))
		}
		// Taken before the stamp was read and after the file's last change:
		// a later time would pass a racy stamp (Stamp.Racy).
		if taken.Before(before) || taken.After(after) || got.Ctime > taken.UnixNano()+int64(RacyWindow) {
			t.Fatalf("%s: stamp taken at %v, outside %v–%v or before its change at %d", f.Path, taken, before, after, got.Ctime)
		}
		staged[i].Target().Close()
	}
}

// A new folder staged under a temporary name, let go, and replaced there
// by a link before Publish: the link is not renamed into place, nothing
// is written through it, and Publish reports the folder changed.
func TestLetGoStagedFolderReplacedIsRefused(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(dir, "victim")
	os.Mkdir(victim, 0o755)
	b := NewBatch(Options{Create: true, DirMode: 0o755, StageNew: true})
	b.limit = 1
	defer b.Close()
	var staged []*Staged
	for _, d := range []string{"n1", "n2", "n3"} {
		tg, err := b.Target(filepath.Join(dir, d, "sub", "f.md"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := tg.Stage([]byte("new"), Perm{New: 0o644})
		tg.release()
		if err != nil {
			t.Fatal(err)
		}
		staged = append(staged, s)
	}
	n1 := b.staged[0]
	tmp := filepath.Join(dir, n1.staged)
	if err := os.Rename(tmp, filepath.Join(dir, "away")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, tmp); err != nil {
		t.Fatal(err)
	}
	for _, s := range staged {
		if err := s.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	var changed *ChangedError
	if err := b.Publish(); !errors.As(err, &changed) {
		t.Fatalf("Publish of a replaced staged folder: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "n1")); err == nil {
		t.Error("n1 was put in place")
	}
	if entries, _ := os.ReadDir(victim); len(entries) != 0 {
		t.Errorf("written through the link: %v", entries)
	}
	if fi, err := os.Lstat(tmp); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was touched: %v %v", fi, err)
	}
}
