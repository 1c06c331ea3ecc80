//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// appendNew is an update that keeps the old file and adds "new".
func appendNew(old afero.File) (func(w io.Writer) error, error) {
	var b []byte
	if old != nil {
		var err error
		if b, err = io.ReadAll(old); err != nil {
			return nil, err
		}
	}
	return func(w io.Writer) error { _, err := w.Write(append(b, "new"...)); return err }, nil
}

// settled ages path past RacyWindow, as a file not touched for a while.
func settled(t *testing.T, path string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * RacyWindow) // the change of mtime is itself a change of ctime
}

func temps(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".charter-tmp-") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestPrepareThenCommit(t *testing.T) {
	dir := t.TempDir()
	s := &Files{Fs: afero.NewOsFs()}
	path := filepath.Join(dir, "AGENTS.md")
	os.WriteFile(path, []byte("mine\n"), 0o644)
	settled(t, path)
	killed := filepath.Join(dir, NewTempName("AGENTS.md")) // a killed run's
	os.WriteFile(killed, []byte("half"), 0o644)
	p := s.Prepare(path, WriteOptions{}, appendNew)
	if p == nil {
		t.Fatal("a settled file was not prepared")
	}
	if b, _ := os.ReadFile(path); string(b) != "mine\n" {
		t.Fatalf("Prepare changed the file: %q", b)
	}
	if !s.CommitPrepared(p) {
		t.Fatal("CommitPrepared of an unchanged file gave way")
	}
	SyncPrepared([]*Prepared{p})
	if b, _ := os.ReadFile(path); string(b) != "mine\nnew" || len(temps(t, dir)) != 0 {
		t.Fatalf("committed file: %q, temps left %v", b, temps(t, dir))
	}
	p.Abort() // committed: nothing to remove, nothing removed
	if b, _ := os.ReadFile(path); string(b) != "mine\nnew" || len(temps(t, dir)) != 0 {
		t.Fatalf("after Abort of a committed file: %q, temps %v", b, temps(t, dir))
	}
	// A missing folder is made, as UpdateFileStream makes it.
	deep := filepath.Join(dir, ".codex", "hooks.json")
	if p := s.Prepare(deep, WriteOptions{}, appendNew); p == nil {
		t.Fatal("a file in a missing folder was not prepared")
	} else if !s.CommitPrepared(p) {
		t.Fatal("CommitPrepared of a new file gave way")
	} else {
		p.Abort() // committed: its folder let go, the file kept
	}
	if b, _ := os.ReadFile(deep); string(b) != "new" {
		t.Fatalf("new file: %q", b)
	}
}

// Whatever happened to the file between Prepare and CommitPrepared, the
// commit gives way: the person's file stays as it is, and no temporary
// file is left.
func TestCommitPreparedGivesWay(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(t *testing.T, dir, path string)
		want   string // the file after the commit; "" for none
	}{
		{"edited", func(t *testing.T, dir, path string) {
			// Same size, so only the stamp's times and ctime tell.
			if err := os.WriteFile(path, []byte("MINE\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "MINE\n"},
		{"replaced", func(t *testing.T, dir, path string) {
			tmp := filepath.Join(dir, "other")
			os.WriteFile(tmp, []byte("MINE\n"), 0o644)
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}, "MINE\n"},
		{"in a folder swapped", func(t *testing.T, dir, path string) {
			// The folder moved away and another, with the same file, in its place.
			d := filepath.Dir(path)
			if err := os.Rename(d, d+".old"); err != nil {
				t.Fatal(err)
			}
			os.Mkdir(d, 0o755)
			os.WriteFile(path, []byte("MINE\n"), 0o644)
		}, "MINE\n"},
		{"removed", func(t *testing.T, dir, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, ""},
		{"left, its temporary file taken for a killed writer's", func(t *testing.T, dir, path string) {
			for _, f := range temps(t, dir) {
				os.Remove(f)
			}
		}, "mine\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			s := &Files{Fs: afero.NewOsFs()}
			path := filepath.Join(dir, "p", "AGENTS.md")
			os.Mkdir(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte("mine\n"), 0o644)
			settled(t, path)
			p := s.Prepare(path, WriteOptions{}, appendNew)
			if p == nil {
				t.Fatal("not prepared")
			}
			c.change(t, dir, path)
			if s.CommitPrepared(p) {
				t.Fatalf("CommitPrepared of a file %s", c.name)
			}
			if b, _ := os.ReadFile(path); string(b) != c.want {
				t.Fatalf("the file after a commit that gave way: %q, want %q", b, c.want)
			}
			if tt := temps(t, dir); len(tt) != 0 {
				t.Fatalf("temporary files left: %v", tt)
			}
		})
	}
}

// A file that appeared where none was read is not replaced.
func TestCommitPreparedKeepsAFileThatAppeared(t *testing.T) {
	dir := t.TempDir()
	s := &Files{Fs: afero.NewOsFs()}
	path := filepath.Join(dir, ".mcp.json")
	p := s.Prepare(path, WriteOptions{}, appendNew)
	if p == nil {
		t.Fatal("not prepared")
	}
	os.WriteFile(path, []byte("mine"), 0o644)
	if s.CommitPrepared(p) {
		t.Fatal("CommitPrepared over a file that appeared")
	}
	if b, _ := os.ReadFile(path); string(b) != "mine" || len(temps(t, dir)) != 0 {
		t.Fatalf("file %q, temps %v", b, temps(t, dir))
	}
}

// A file changed a moment before it is read is not prepared: its stamp
// could not tell a second change in the same tick.
func TestPrepareSkipsARacyFile(t *testing.T) {
	dir := t.TempDir()
	s := &Files{Fs: afero.NewOsFs()}
	path := filepath.Join(dir, "AGENTS.md")
	os.WriteFile(path, []byte("mine\n"), 0o644)
	if p := s.Prepare(path, WriteOptions{}, appendNew); p != nil {
		p.Abort()
		t.Fatal("a file written just now was prepared")
	}
	if len(temps(t, dir)) != 0 {
		t.Fatalf("temps %v", temps(t, dir))
	}
}

// Abort removes the prepared file and leaves the target as it was.
func TestPreparedAbort(t *testing.T) {
	dir := t.TempDir()
	s := &Files{Fs: afero.NewOsFs()}
	path := filepath.Join(dir, "AGENTS.md")
	p := s.Prepare(path, WriteOptions{}, appendNew)
	if p == nil {
		t.Fatal("not prepared")
	}
	if len(temps(t, dir)) != 1 {
		t.Fatalf("prepared file: %v", temps(t, dir))
	}
	p.Abort()
	p.Abort()
	if _, err := os.Lstat(path); !os.IsNotExist(err) || len(temps(t, dir)) != 0 {
		t.Fatalf("after Abort: %v, temps %v", err, temps(t, dir))
	}
}

// A new file is committed only into the folder it was prepared in: one
// put in that folder's place since gets nothing, nor does the old one.
func TestCommitPreparedNeedsTheSameFolder(t *testing.T) {
	dir := t.TempDir()
	s := &Files{Fs: afero.NewOsFs()}
	d := filepath.Join(dir, "p")
	os.Mkdir(d, 0o755)
	p := s.Prepare(filepath.Join(d, ".mcp.json"), WriteOptions{}, appendNew)
	if p == nil {
		t.Fatal("not prepared")
	}
	os.Rename(d, d+".old")
	os.Mkdir(d, 0o755)
	if s.CommitPrepared(p) {
		t.Fatal("CommitPrepared into another folder")
	}
	for _, f := range []string{filepath.Join(d, ".mcp.json"), filepath.Join(d+".old", ".mcp.json")} {
		if _, err := os.Lstat(f); !os.IsNotExist(err) {
			t.Fatalf("%s: %v", f, err)
		}
	}
	if len(temps(t, dir)) != 0 {
		t.Fatalf("temps %v", temps(t, dir))
	}
}
