//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsys

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// Staged is, on this system, a whole file written at Commit (the portable
// walk has no directory handles to stage in).
type Staged struct {
	t    *Target
	data []byte
	p    Perm
}

func (t *Target) Stage(data []byte, p Perm) (*Staged, error) {
	return &Staged{t: t, data: data, p: p}, nil
}
func (s *Staged) Commit() error   { return s.t.Write(s.data, s.p) }
func (s *Staged) Abort()          {}
func (s *Staged) Target() *Target { return s.t }

// Stamp is never known here: callers stamp by path.
func (s *Staged) Stamp() (Stamp, time.Time, bool) { return Stamp{}, time.Time{}, false }

// SyncStaged: Commit writes each file durably (Write syncs it).
func SyncStaged(ss []*Staged) error { return nil }

// SyncDirs: Write synced each directory.
func SyncDirs(ts []*Target) {}

// SyncDir: Write synced the directory.
func SyncDir(t *Target) {}

// Remove deletes the target's file; a missing one is no error.
func (t *Target) Remove() error {
	if err := os.Remove(t.full()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// RemoveEmptyDir removes the target when it is an empty directory.
func (t *Target) RemoveEmptyDir() bool { return os.Remove(t.full()) == nil }
