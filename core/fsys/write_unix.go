//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"fmt"
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// WriteFunc is Write of whatever fill writes to the temporary file: a
// large file can be copied into it from another file by the kernel.
func (t *Target) WriteFunc(fill func(w io.Writer) error, p Perm) error {
	tmp, f, err := t.fillTemp(fill, p)
	if err != nil {
		return err
	}
	if t.Written != nil {
		t.Written()
	}
	if !t.Volatile {
		if err := f.Sync(); err != nil {
			f.Close()
			unix.Unlinkat(t.fd, tmp, 0)
			return fmt.Errorf("write %s: %w", t.Path, err)
		}
	}
	if err := f.Close(); err != nil {
		unix.Unlinkat(t.fd, tmp, 0)
		return fmt.Errorf("write %s: %w", t.Path, err)
	}
	if t.BeforeRename != nil {
		t.BeforeRename(join(t.Dir, tmp))
	}
	// The rename replaces whatever has the name now. A link put there since
	// the check above would be replaced: look once more, as late as possible.
	var st unix.Stat_t
	if err := unix.Fstatat(t.fd, t.Name, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil && st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Unlinkat(t.fd, tmp, 0)
		return &ChangedError{Path: t.Path, What: "stopped being a regular file"}
	}
	if err := unix.Renameat(t.fd, tmp, t.fd, t.Name); err != nil {
		unix.Unlinkat(t.fd, tmp, 0)
		return fmt.Errorf("write %s: %w", t.Path, err)
	}
	// The rename is done; a directory that cannot be synced (some network
	// and FUSE file systems) still holds the new file.
	if t.Volatile || t.DirSyncLater {
		return nil
	}
	if rfd, err := t.readFD(); err == nil {
		unix.Fsync(rfd)
	}
	return nil
}

// fillTemp checks the name, creates a temporary file beside it and fills
// it with the file's mode and owner (WriteFunc, Prepare); on an error
// nothing is left.
func (t *Target) fillTemp(fill func(w io.Writer) error, p Perm) (string, *os.File, error) {
	if t.IsDir {
		return "", nil, &IsDirError{Path: t.Path}
	}
	if t.Missing {
		return "", nil, &fs.PathError{Op: "write", Path: t.Path, Err: fs.ErrNotExist}
	}
	var st unix.Stat_t
	exists := true
	if err := unix.Fstatat(t.fd, t.Name, &st, unix.AT_SYMLINK_NOFOLLOW); err == unix.ENOENT {
		exists = false
	} else if err != nil {
		return "", nil, &fs.PathError{Op: "write", Path: t.Path, Err: err}
	}
	if exists {
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFREG:
		case unix.S_IFLNK:
			return "", nil, &ChangedError{Path: t.Path, What: "became a link"}
		case unix.S_IFDIR:
			return "", nil, &IsDirError{Path: t.Path}
		default:
			return "", nil, &NotRegularError{Path: t.Path}
		}
		if st.Mode&0o200 == 0 {
			return "", nil, &ReadOnlyError{Path: t.Path, Mode: fs.FileMode(st.Mode & 0o7777)}
		}
	}
	mode, exact := p.mode(fs.FileMode(st.Mode&0o777), exists)
	tmp, fd, err := t.createTemp(mode)
	if err != nil {
		return "", nil, err
	}
	f := os.NewFile(uintptr(fd), join(t.Dir, tmp))
	fail := func(err error) (string, *os.File, error) {
		f.Close()
		unix.Unlinkat(t.fd, tmp, 0)
		return "", nil, fmt.Errorf("write %s: %w", t.Path, err)
	}
	if err := fill(f); err != nil {
		return fail(err)
	}
	if exact { // the umask narrowed the create mode; an exact mode is exact
		if err := f.Chmod(mode); err != nil {
			return fail(err)
		}
	}
	if exists && os.Geteuid() == 0 && (int(st.Uid) != 0 || int(st.Gid) != 0) {
		// root editing a user's file must not hand it to root
		if err := f.Chown(int(st.Uid), int(st.Gid)); err != nil {
			return fail(err)
		}
	}
	return tmp, f, nil
}

func (t *Target) createTemp(mode fs.FileMode) (string, int, error) {
	for range 16 {
		tmp := NewTempName(t.Name)
		fd, err := unix.Openat(t.fd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(mode.Perm()))
		if err == unix.EEXIST {
			continue
		}
		if err != nil {
			return "", -1, fmt.Errorf("write %s: create a temporary file in %s: %w", t.Path, t.Dir, err)
		}
		return tmp, fd, nil
	}
	return "", -1, fmt.Errorf("write %s: no free temporary name in %s", t.Path, t.Dir)
}
