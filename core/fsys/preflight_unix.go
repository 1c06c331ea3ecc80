//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// Preflight tells, without writing, what a write of the walked target
// would refuse: a directory, a read-only file,
// a link that names a folder that does not exist, a folder the user may
// not write in. An apply plans every target with it, so that one refusal
// leaves every file as it was (SPEC §16). Root passes the access check
// as the kernel lets it.
func (t *Target) Preflight() error {
	if t.Missing {
		if t.dangling != "" {
			return &DanglingError{Path: t.Path, Link: t.dangling, Missing: t.Dir}
		}
		return nil
	}
	if t.IsDir {
		return &IsDirError{Path: t.Path}
	}
	var st unix.Stat_t
	err := unix.Fstatat(t.fd, t.Name, &st, unix.AT_SYMLINK_NOFOLLOW)
	switch {
	case err == unix.ENOENT:
		if err := unix.Faccessat(t.fd, ".", unix.W_OK, 0); err != nil {
			return &fs.PathError{Op: "write in", Path: t.Dir, Err: err}
		}
		return nil
	case err != nil:
		return &fs.PathError{Op: "lstat", Path: t.full(), Err: err}
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return nil // the read that follows refuses it, saying what is there
	case st.Mode&0o200 == 0:
		return &ReadOnlyError{Path: t.Path, Mode: fs.FileMode(st.Mode & 0o7777)}
	}
	return nil
}
