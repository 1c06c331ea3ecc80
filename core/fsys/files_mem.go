package fsys

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/spf13/afero"
)

// memUpdate is UpdateFileOpts on a file system without links or flock.
func (s *Files) memUpdate(target string, o WriteOptions, update func(old afero.File) (func(w io.Writer) error, error)) error {
	mu := s.lockTable().get(target)
	mu.Lock()
	defer mu.Unlock()
	var old afero.File
	switch f, err := s.OpenFile(target, o.Kind); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return ReadError(target, err)
	default:
		defer f.Close()
		old = f
	}
	fill, err := update(old)
	if err != nil || fill == nil {
		return err
	}
	var buf bytes.Buffer
	if err := fill(&buf); err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	return s.memWrite(target, o, func(w io.Writer) error { return writeParts(w, [][]byte{buf.Bytes()}) })
}

// memWrite keeps the rules of Target.Write (modes, read-only refusal,
// temporary file and rename) on a file system without links.
func (s *Files) memWrite(path string, o WriteOptions, fill func(w io.Writer) error) error {
	p := o.perm()
	mode := p.New
	if fi, err := s.Fs.Stat(path); err == nil {
		if fi.IsDir() {
			return &IsDirError{Path: path}
		}
		if fi.Mode().Perm()&0o200 == 0 {
			return &ReadOnlyError{Path: path, Mode: fi.Mode().Perm()}
		}
		mode = fi.Mode().Perm()
	}
	if p.Fixed != 0 {
		mode = p.Fixed
	}
	dir := s.Paths.Dir(path)
	if err := s.Fs.MkdirAll(dir, o.dirMode()); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, f, err := s.memTemp(dir, filepath.Base(path))
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fail := func(err error) error {
		f.Close()
		s.Fs.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := fill(f); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return fail(err)
	}
	if err := s.Fs.Chmod(tmp, mode); err != nil {
		return fail(err)
	}
	if s.BeforeRename != nil {
		s.BeforeRename(tmp)
	}
	if err := s.Fs.Rename(tmp, path); err != nil {
		s.Fs.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// memTemp creates a new temporary file of name in dir, named as fsys names
// every temporary file of charter's (TempName).
func (s *Files) memTemp(dir, name string) (string, afero.File, error) {
	for range 16 {
		tmp := s.Paths.Join(dir, NewTempName(name))
		f, err := s.Fs.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return tmp, f, err
	}
	return "", nil, fmt.Errorf("no free temporary name in %s", dir)
}

// lockTable holds in-process locks by path for file systems without flock.
type lockTable struct {
	mu sync.Mutex
	m  map[string]*sync.Mutex
}

func (t *lockTable) get(path string) *sync.Mutex {
	t.mu.Lock()
	defer t.mu.Unlock()
	mu, ok := t.m[path]
	if !ok {
		mu = &sync.Mutex{}
		t.m[path] = mu
	}
	return mu
}
