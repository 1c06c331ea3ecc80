//go:build unix

package fsys

import (
	"errors"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// A fill that fails half way leaves the old file as it was and no
// temporary file, on the real file system and in memory.
func TestWriteAtomicFuncFailedFillLeavesNothing(t *testing.T) {
	boom := errors.New("boom")
	half := func(w io.Writer) error {
		if _, err := w.Write([]byte("half of it")); err != nil {
			return err
		}
		return boom
	}
	for _, fs := range []afero.Fs{afero.NewOsFs(), afero.NewMemMapFs()} {
		dir := t.TempDir()
		s := &Files{Fs: fs, Now: time.Now}
		path := filepath.Join(dir, "memo")
		if err := s.WriteAtomicFunc(path, WriteOptions{Owned: true, Volatile: true}, func(w io.Writer) error {
			_, err := w.Write([]byte("old\n"))
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if err := s.WriteAtomicFunc(path, WriteOptions{Owned: true, Volatile: true}, half); !errors.Is(err, boom) {
			t.Fatalf("%T: a failed fill: %v, want boom", fs, err)
		}
		if data, err := afero.ReadFile(fs, path); err != nil || string(data) != "old\n" {
			t.Fatalf("%T: after a failed fill the file holds %q (%v)", fs, data, err)
		}
		names, _ := afero.ReadDir(fs, dir)
		if len(names) != 1 {
			t.Fatalf("%T: %d names left in the folder, want the file alone", fs, len(names))
		}
	}
}
