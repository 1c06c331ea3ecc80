//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/afero"
	"golang.org/x/sys/unix"
)

// ReadWithin reads through a raw descriptor, not OpenWithin's os.File: for
// every kind of path it returns what reading OpenWithin's file returned,
// bytes, error code and message alike, held folders or not.
func TestReadWithinAsOpenWithin(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "proj")
	out := filepath.Join(dir, "outside.yaml")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, ".charter", "sub"), 0o755))
	must(os.WriteFile(out, []byte("out: 1\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, ".charter", "settings.yaml"), []byte("rules: {}\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, ".charter", "empty.yaml"), nil, 0o644))
	must(os.WriteFile(filepath.Join(root, ".charter", "big.yaml"), make([]byte, KindSettings.Max()+1), 0o644))
	must(os.WriteFile(filepath.Join(root, ".charter", "cap.yaml"), bytes.Repeat([]byte("a"), int(KindSettings.Max())), 0o644))
	must(os.Symlink(out, filepath.Join(root, ".charter", "escape.yaml")))
	must(os.Symlink("settings.yaml", filepath.Join(root, ".charter", "inside.yaml")))
	must(os.Symlink("nowhere.yaml", filepath.Join(root, ".charter", "dangling.yaml")))
	must(unix.Mkfifo(filepath.Join(root, ".charter", "fifo.yaml"), 0o644))

	names := []string{"settings.yaml", "empty.yaml", "big.yaml", "cap.yaml", "escape.yaml", "inside.yaml",
		"dangling.yaml", "fifo.yaml", "sub", "missing.yaml", "nodir/missing.yaml"}
	for _, hold := range []bool{false, true} {
		s := &Files{Fs: afero.NewOsFs()}
		if hold {
			defer s.Hold()()
		}
		for _, name := range names {
			path := filepath.Join(root, ".charter", name)
			got, gotErr := s.ReadWithin(root, path, KindSettings)
			want, wantErr := readThroughOpen(s, root, path)
			if !bytes.Equal(got, want) || (got == nil) != (want == nil) {
				t.Errorf("hold %v, %s: read %d bytes (nil %v), OpenWithin %d (nil %v)", hold, name, len(got), got == nil, len(want), want == nil)
			}
			if codeOf(gotErr) != codeOf(wantErr) || errText(gotErr) != errText(wantErr) {
				t.Errorf("hold %v, %s: error %v, OpenWithin's %v", hold, name, gotErr, wantErr)
			}
		}
	}
}

// readThroughOpen is ReadWithin as it was before: OpenWithin's file read
// whole.
func readThroughOpen(s *Files, root, path string) ([]byte, error) {
	f, err := s.OpenWithin(root, path, KindSettings)
	switch {
	case IsAbsent(err):
		return nil, nil
	case err != nil:
		return nil, ReadError(path, err)
	}
	defer f.Close()
	data, err := ReadAll(f, path, KindSettings)
	if err != nil {
		return nil, ReadError(path, err)
	}
	return data, nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// ReadFile reads a raw descriptor, not Open's os.File: for every kind of
// path it returns what reading Open's file returned.
func TestReadFileAsOpen(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "ok.yaml"), []byte("rules: {}\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "empty.yaml"), nil, 0o644))
	must(os.WriteFile(filepath.Join(dir, "big.yaml"), make([]byte, KindSettings.Max()+1), 0o644))
	must(os.WriteFile(filepath.Join(dir, "cap.yaml"), bytes.Repeat([]byte("a"), int(KindSettings.Max())), 0o644))
	must(os.Symlink("ok.yaml", filepath.Join(dir, "link.yaml")))
	must(os.Symlink("nowhere.yaml", filepath.Join(dir, "dangling.yaml")))
	must(unix.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o644))
	must(os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	paths := []string{"/dev/zero", "/dev/null"}
	for _, n := range []string{"ok.yaml", "empty.yaml", "big.yaml", "cap.yaml", "link.yaml", "dangling.yaml", "fifo.yaml", "sub", "missing.yaml", "no/missing.yaml"} {
		paths = append(paths, filepath.Join(dir, n))
	}
	for _, path := range paths {
		got, gotErr := ReadFile(path, KindSettings)
		var want []byte
		f, wantErr := Open(path, KindSettings)
		if wantErr == nil {
			want, wantErr = ReadAll(f, path, KindSettings)
			f.Close()
		}
		if !bytes.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("%s: read %d bytes (nil %v), Open %d (nil %v)", path, len(got), got == nil, len(want), want == nil)
		}
		if codeOf(gotErr) != codeOf(wantErr) || errText(gotErr) != errText(wantErr) || IsAbsent(gotErr) != IsAbsent(wantErr) {
			t.Errorf("%s: error %v, Open's %v", path, gotErr, wantErr)
		}
	}
}
