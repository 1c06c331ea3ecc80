//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"bytes"
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
		folder, base := b.Folder(path)
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
	if folder, _ := b.Folder(filepath.Join(dir, "nowhere", "x")); folder != nil {
		t.Fatal("a missing folder is held")
	}
}
