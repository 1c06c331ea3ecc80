//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// A held folder's listing is os.Lstat's of each entry, sorted, and cut
// at n: files, an executable, a folder, a link (never followed), a pipe.
func TestListHeldAsLstat(t *testing.T) {
	dir := t.TempDir()
	for name, mode := range map[string]os.FileMode{"b.md": 0o644, "a.sh": 0o755} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name+" body"), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "c"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("c", filepath.Join(dir, "d")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "e"), 0o600); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	got, err := listHeld(fd, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.sh", "b.md", "c", "d", "e"}
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	for i, e := range got {
		fi, err := os.Lstat(filepath.Join(dir, want[i]))
		if err != nil {
			t.Fatal(err)
		}
		st, ok := e.Sys().(*syscall.Stat_t)
		if !ok || *st != *fi.Sys().(*syscall.Stat_t) {
			t.Errorf("%s: Sys %#v, os.Lstat's %#v", want[i], e.Sys(), fi.Sys())
		}
		if e.Name() != fi.Name() || e.Size() != fi.Size() || e.Mode() != fi.Mode() || !e.ModTime().Equal(fi.ModTime()) || e.IsDir() != fi.IsDir() {
			t.Errorf("%s: %v %d %v %v, os.Lstat: %v %d %v %v", want[i], e.Name(), e.Size(), e.Mode(), e.ModTime(), fi.Name(), fi.Size(), fi.Mode(), fi.ModTime())
		}
	}
	if _, err := unix.Seek(fd, 0, 0); err != nil {
		t.Fatal(err)
	}
	if cut, err := listHeld(fd, 3); err != nil || len(cut) != 3 {
		t.Fatalf("at most 3: %d entries (%v)", len(cut), err)
	}
}

// Entries removed while a held folder is listed are left out without an
// error, as Readdir leaves them, and the entries that stay are always
// listed, each as what it is: a writer creates and removes files beside
// them the whole time (an entry can go between getdents and its fstatat).
func TestListHeldWhileRemoved(t *testing.T) {
	dir := t.TempDir()
	stay := []string{"keep-a", "keep-b", "keep-c"}
	for _, name := range stay {
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			p := filepath.Join(dir, "churn-"+strconv.Itoa(i%64))
			if i%2 == 0 {
				os.WriteFile(p, nil, 0o644)
			} else {
				os.Remove(filepath.Join(dir, "churn-"+strconv.Itoa((i-1)%64)))
			}
		}
	}()
	defer func() { close(stop); <-done }()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	for range 2000 {
		if _, err := unix.Seek(fd, 0, 0); err != nil {
			t.Fatal(err)
		}
		got, err := listHeld(fd, 0)
		if err != nil {
			t.Fatalf("listing while entries go: %v", err)
		}
		kept := 0
		for _, e := range got {
			switch {
			case strings.HasPrefix(e.Name(), "keep-"):
				if !e.IsDir() {
					t.Fatalf("%s listed as %v", e.Name(), e.Mode())
				}
				kept++
			case !e.Mode().IsRegular():
				t.Fatalf("%s listed as %v", e.Name(), e.Mode())
			}
		}
		if kept != len(stay) {
			t.Fatalf("%d of the %d folders that stay were listed", kept, len(stay))
		}
	}
}
