package fsys

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/spf13/afero"
)

// ReadFile reads a file charter did not write itself (a settings layer, the
// policy, an agent's file, a coverage report, a manifest): only a regular
// file, opened without blocking, at most k's cap (Kind documents the
// caps). A missing file is an error that wraps fs.ErrNotExist, as with
// afero.ReadFile. On the operating system's file system fsys does the
// work; on any other (MemMapFs in tests) Stat stands in for fstat.
func (s *Files) ReadFile(path string, k Kind) ([]byte, error) {
	if s.onOS() {
		return ReadFile(path, k)
	}
	f, err := s.OpenFile(path, k)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, path, k)
}

// OpenFile is ReadFile for a caller that streams the file: the file comes
// back open, checked, and held to the cap by every read of it.
func (s *Files) OpenFile(path string, k Kind) (afero.File, error) {
	return OpenFileFs(s.Fs, path, k)
}

// OpenFileFs is OpenFile for code that holds a file system but no System
// (a gate run's coverage report).
func OpenFileFs(afs afero.Fs, path string, k Kind) (afero.File, error) {
	var f afero.File
	if IsOS(afs) {
		of, err := Open(path, k)
		if err != nil {
			return nil, err
		}
		f = of
	} else {
		fi, err := afs.Stat(path)
		switch {
		case err != nil:
			return nil, err
		case fi.IsDir():
			return nil, &IsDirError{Path: path}
		case !fi.Mode().IsRegular():
			return nil, &NotRegularError{Path: path, What: Describe(fi.Mode()), Read: true}
		case fi.Size() > k.Max():
			return nil, &TooLargeError{Path: path, Kind: k, Size: fi.Size()}
		}
		if f, err = afs.Open(path); err != nil {
			return nil, err
		}
	}
	return Capped(f, path, k), nil
}

// Capped holds every read of f, opened at path, to k's cap: a read that
// would go past it fails with *TooLargeError. It keeps a file that
// grows while it is read (or one whose size was not known) bounded.
func Capped(f afero.File, path string, k Kind) afero.File {
	if f == nil {
		return nil
	}
	return &cappedFile{File: f, path: path, kind: k}
}

// cappedFile embeds the afero.File interface, not *os.File, so that no
// WriteTo or ReadFrom of the file itself bypasses its Read.
type cappedFile struct {
	afero.File
	path string
	kind Kind
	pos  int64
}

func (c *cappedFile) tooLarge() error { return &TooLargeError{Path: c.path, Kind: c.kind} }

func (c *cappedFile) Read(p []byte) (int, error) {
	limit := c.kind.Max()
	if room := limit + 1 - c.pos; int64(len(p)) > room {
		p = p[:max(room, 0)]
	}
	if len(p) == 0 && c.pos > limit {
		return 0, c.tooLarge()
	}
	n, err := c.File.Read(p)
	c.pos += int64(n)
	if c.pos > limit {
		return max(n-int(c.pos-limit), 0), c.tooLarge()
	}
	return n, err
}

func (c *cappedFile) ReadAt(p []byte, off int64) (int, error) {
	limit := c.kind.Max()
	if room := limit + 1 - off; int64(len(p)) > room {
		p = p[:max(room, 0)]
	}
	n, err := c.File.ReadAt(p, off)
	if off+int64(n) > limit {
		return int(max(limit-off, 0)), c.tooLarge()
	}
	return n, err
}

func (c *cappedFile) Seek(offset int64, whence int) (int64, error) {
	pos, err := c.File.Seek(offset, whence)
	if err == nil {
		c.pos = pos
	}
	return pos, err
}

// IsAbsent reports whether err says a file does not exist.
func IsAbsent(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// ReadOptional is ReadFile that returns nil, nil for a missing file (an
// empty one is a non-nil empty slice), and wraps any other error with the
// path when it does not name it already.
func (s *Files) ReadOptional(path string, k Kind) ([]byte, error) {
	data, err := s.ReadFile(path, k)
	switch {
	case IsAbsent(err):
		return nil, nil
	case err != nil:
		return nil, ReadError(path, err)
	case data == nil:
		return []byte{}, nil
	}
	return data, nil
}

// ReadError keeps a refusal (which names the path and has a code) as it
// is and adds the path to any other error.
func ReadError(path string, err error) error {
	var c interface{ Code() string }
	if errors.As(err, &c) {
		return err
	}
	return fmt.Errorf("read %s: %w", path, err)
}

var _ io.ReaderAt = (*cappedFile)(nil)
