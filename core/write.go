package core

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/gofrs/flock"
	"github.com/spf13/afero"
)

// File modes charter writes with: its files hold tokens and personal settings.
const (
	FileMode fs.FileMode = 0o600
	DirMode  fs.FileMode = 0o700
)

// SharedLink returns the first symbolic link among target and its ancestors
// up to and including the companion home, or "" when there is none or the
// target lies outside the companion home.
func (s *System) SharedLink(target string) (string, error) {
	home, err := s.CompanionHome()
	if err != nil {
		return "", nil // without a home there is no companion tree to protect
	}
	lst, ok := s.Fs.(afero.Lstater)
	if !ok {
		return "", nil
	}
	for _, p := range s.Paths.Ancestors(target, home) {
		fi, lstatCalled, err := lst.LstatIfPossible(p)
		if !lstatCalled {
			return "", nil // this file system has no links
		}
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("check %s for shared links: %w", p, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return p, nil
		}
	}
	return "", nil
}

// UpdateFile is the one guarded write path for user content: check for a
// shared link, take the file's lock, read it, let update compute the new
// bytes and replace the file atomically. update sees nil when the file does
// not exist; returning nil bytes from update writes nothing.
func (s *System) UpdateFile(target string, confirmShared bool, update func(old []byte) ([]byte, error)) error {
	link, err := s.SharedLink(target)
	if err != nil {
		return err
	}
	real := target
	if link != "" {
		if !confirmShared {
			return &SharedWriteError{Target: target, SharedPath: link}
		}
		// Write at the real location; the link itself is never touched.
		if real, err = s.resolve(target); err != nil {
			return err
		}
	}
	return s.WithLock(real, func() error {
		old, err := afero.ReadFile(s.Fs, real)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("read %s: %w", real, err)
		}
		data, err := update(old)
		if err != nil || data == nil {
			return err
		}
		return s.WriteAtomic(real, data)
	})
}

// WithLock runs fn holding an exclusive lock for path, which serialises
// writers across processes (flock) and within one.
func (s *System) WithLock(path string, fn func() error) error {
	mu := s.locks.get(path)
	mu.Lock()
	defer mu.Unlock()
	if _, ok := s.Fs.(*afero.OsFs); ok {
		lock, err := s.lockPath(path)
		if err != nil {
			return err
		}
		fl := flock.New(lock, flock.SetPermissions(FileMode))
		if err := fl.Lock(); err != nil {
			return fmt.Errorf("lock %s: %w", path, err)
		}
		defer fl.Unlock()
	}
	return fn()
}

// lockPath keeps lock files in charter's own directory, named after the
// file they guard, so that no agent or companion directory collects them.
func (s *System) lockPath(path string) (string, error) {
	root, err := s.DefaultRoot()
	if err != nil { // no home: beside the file is the only place left
		if err := s.Fs.MkdirAll(s.Paths.Dir(path), DirMode); err != nil {
			return "", fmt.Errorf("create %s: %w", s.Paths.Dir(path), err)
		}
		return path + ".lock", nil
	}
	dir := s.Paths.Join(root, "locks")
	if err := s.Fs.MkdirAll(dir, DirMode); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	sum := sha256.Sum256([]byte(path))
	return s.Paths.Join(dir, hex.EncodeToString(sum[:12])+".lock"), nil
}

// WriteAtomic replaces path with data: a temporary file in the same
// directory, fsync, rename, fsync of the directory. Readers see the old
// bytes or the new ones, never a mix. A new file gets FileMode; an existing
// one keeps its permissions, which are its owner's choice.
func (s *System) WriteAtomic(path string, data []byte) error {
	mode := FileMode
	if fi, err := s.Fs.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	dir := s.Paths.Dir(path)
	if err := s.Fs.MkdirAll(dir, DirMode); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	f, err := afero.TempFile(s.Fs, dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		s.Fs.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return fail(err)
	}
	if err := s.Fs.Chmod(tmp, mode); err != nil {
		return fail(err)
	}
	if s.beforeRename != nil {
		s.beforeRename(tmp)
	}
	if err := s.Fs.Rename(tmp, path); err != nil {
		s.Fs.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	s.syncDir(dir)
	return nil
}

// syncDir makes a rename durable. Some platforms (Windows) cannot open a
// directory for syncing; the rename has still happened there.
func (s *System) syncDir(dir string) {
	if d, err := s.Fs.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// resolve follows symbolic links in target, including a final link to a
// file that does not exist yet and a target below a linked directory that
// does not exist yet.
func (s *System) resolve(target string) (string, error) {
	if _, ok := s.Fs.(*afero.OsFs); !ok {
		return target, nil
	}
	var tail []string
	p := target
	for {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return s.Paths.Join(append([]string{r}, tail...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("resolve %s: %w", target, err)
		}
		// A dangling link: follow it by hand once, then keep resolving.
		if dest, lerr := os.Readlink(p); lerr == nil {
			if !filepath.IsAbs(dest) {
				dest = filepath.Join(filepath.Dir(p), dest)
			}
			return s.resolve(s.Paths.Join(append([]string{dest}, tail...)...))
		}
		parent := s.Paths.Dir(p)
		if parent == p {
			return target, nil
		}
		tail = append([]string{filepath.Base(p)}, tail...)
		p = parent
	}
}

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
