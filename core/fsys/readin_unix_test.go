//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// ReadIn answers for a plain regular file exactly as Target(path).Read
// does, and leaves every other name to Target.
func TestReadInIsTargetRead(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("x", int(KindSettings.Max())+1)
	for name, data := range map[string]string{"plain": "hello\n", "empty": "", "big": big, "d/inner": "in"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("plain", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := NewBatch(Options{Confirmed: true})
	defer b.Close()
	want := map[string]bool{"plain": true, "empty": true, "d/inner": true}
	for _, name := range []string{"plain", "empty", "big", "d/inner", "d", "link", "fifo", "missing"} {
		path := filepath.Join(dir, name)
		folder, base, _ := b.Folder(path)
		if folder == nil {
			t.Fatalf("%s: no held folder", name)
		}
		data, done, err := folder.ReadIn(base, KindSettings)
		if done != want[name] {
			t.Fatalf("%s: done %v, want %v", name, done, want[name])
		}
		if !done {
			continue
		}
		tg, terr := b.Target(path)
		if terr != nil {
			t.Fatal(terr)
		}
		got, gerr := tg.Read(KindSettings)
		tg.Close()
		if err != nil || gerr != nil || !bytes.Equal(data, got) || (data == nil) != (got == nil) {
			t.Fatalf("%s: ReadIn %q, %v; Target.Read %q, %v", name, data, err, got, gerr)
		}
	}
	if folder, _, absent := b.Folder(filepath.Join(dir, "nowhere", "x")); folder != nil || !absent {
		t.Fatal("a missing folder is held, or not known absent")
	}
	os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling"))
	if folder, _, absent := b.Folder(filepath.Join(dir, "dangling", "x")); folder != nil || absent {
		t.Fatal("a missing folder behind a link is answered without Target")
	}
}

// A batch target that was free when staged is never renamed over what
// appeared there since: a file, a folder or a link stays as it is, and no
// temporary file is left.
func TestCommitRefusesWhatAppeared(t *testing.T) {
	for _, appear := range []string{"file", "dir", "link"} {
		t.Run(appear, func(t *testing.T) {
			dir := t.TempDir()
			b := NewBatch(Options{Create: true, DirMode: 0o755})
			defer b.Close()
			path := filepath.Join(dir, "new", "f.md")
			tg, err := b.Target(path)
			if err != nil {
				t.Fatal(err)
			}
			defer tg.Close()
			st, err := tg.Stage([]byte("charter's"), Perm{})
			if err != nil {
				t.Fatal(err)
			}
			switch appear {
			case "file":
				os.WriteFile(path, []byte("a person's"), 0o644)
			case "dir":
				os.Mkdir(path, 0o755)
			case "link":
				os.Symlink("elsewhere", path)
			}
			var ce *ChangedError
			if err := st.Commit(); !errors.As(err, &ce) || !strings.Contains(err.Error(), "appeared") {
				t.Fatalf("commit over a new %s: %v", appear, err)
			}
			fi, err := os.Lstat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(path); appear == "file" && string(got) != "a person's" {
				t.Fatalf("the file that appeared holds %q", got)
			}
			if appear == "link" && fi.Mode()&os.ModeSymlink == 0 {
				t.Fatal("the link was replaced")
			}
			entries, _ := os.ReadDir(filepath.Dir(path))
			if len(entries) != 1 {
				t.Fatalf("left behind: %v", entries)
			}
		})
	}
}
