//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsys

import (
	"errors"
	"io/fs"
	"os"
)

// Preflight is the Unix Preflight with Lstat: what a write of the target
// would refuse, found before anything is written.
func (t *portableTarget) Preflight() error {
	if t.Missing {
		return nil
	}
	if t.IsDir {
		return &IsDirError{Path: t.Path}
	}
	fi, err := os.Lstat(t.full())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return nil // the read that follows refuses it, saying what is there
	case fi.Mode().Perm()&0o200 == 0:
		return &ReadOnlyError{Path: t.Path, Mode: fi.Mode().Perm()}
	}
	return nil
}
