//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"golang.org/x/sys/unix"
)

// Staged is a file written to its temporary name and not yet renamed: a
// batch of many files stages them all, makes them durable together
// (SyncStaged), then commits each and syncs each directory once
// (SyncDirs), instead of an fsync per file one after another.
type Staged struct {
	t     *Target
	tmp   string
	fd    int
	dev   uint64
	stamp Stamp // the file as written, once in place (Stamp)
	taken time.Time
	ok    bool
}

// Stage writes data to a new temporary file beside the target, in the
// directory handle the walk checked, with the mode Write would give it.
// The target keeps its directory open until Commit or Abort.
func (t *Target) Stage(data []byte, p Perm) (*Staged, error) {
	if t.IsDir {
		return nil, &IsDirError{Path: t.Path}
	}
	if t.Missing {
		return nil, &fs.PathError{Op: "write", Path: t.Path, Err: fs.ErrNotExist}
	}
	// A batch's lookup a moment ago stands in for this early refusal:
	// Commit refuses a name that changed before its rename.
	var st unix.Stat_t
	if t.looked {
		t.looked = false
	} else if err := unix.Fstatat(t.fd, t.Name, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil {
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFREG:
		case unix.S_IFDIR:
			return nil, &IsDirError{Path: t.Path}
		default:
			return nil, &NotRegularError{Path: t.Path}
		}
	} else if err != unix.ENOENT {
		return nil, &fs.PathError{Op: "write", Path: t.Path, Err: err}
	}
	mode, exact := p.mode(0, false)
	var tmp string
	var fd int
	var err error
	if t.hidden {
		// In a folder nobody sees until Publish: the file itself, at once.
		fd, err = unix.Openat(t.fd, t.Name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(mode.Perm()))
		if err != nil {
			return nil, fmt.Errorf("write %s: %w", t.Path, err)
		}
	} else if tmp, fd, err = t.createTemp(mode); err != nil {
		return nil, err
	}
	// The raw descriptor: an os.File would cost a fcntl to wrap it.
	err = writeFD(fd, data)
	if err == nil && exact {
		err = fchmod(fd, mode)
	}
	if err != nil {
		unix.Close(fd)
		unix.Unlinkat(t.fd, cmp.Or(tmp, t.Name), 0)
		return nil, fmt.Errorf("write %s: %w", t.Path, err)
	}
	s := &Staged{t: t, tmp: tmp, fd: fd, dev: t.dev}
	if tmp == "" {
		// In place already: its folder's rename leaves the file's stamp as
		// it is now, and the folder need not be walked to again for it.
		var st unix.Stat_t
		s.taken = time.Now()
		if unix.Fstat(fd, &st) == nil {
			s.stamp, s.ok = stampOf(&st), true
		}
	}
	if !keepStagedFD {
		unix.Close(fd)
		s.fd = -1
	}
	return s, nil
}

// writeFD writes all of data to fd.
func writeFD(fd int, data []byte) error {
	for len(data) > 0 {
		n, err := unix.Write(fd, data)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return err
		case n == 0:
			return io.ErrShortWrite
		}
		data = data[n:]
	}
	return nil
}

// fchmod is os.File.Chmod on a raw descriptor.
func fchmod(fd int, mode fs.FileMode) error {
	m := uint32(mode.Perm())
	if mode&fs.ModeSetuid != 0 {
		m |= unix.S_ISUID
	}
	if mode&fs.ModeSetgid != 0 {
		m |= unix.S_ISGID
	}
	if mode&fs.ModeSticky != 0 {
		m |= unix.S_ISVTX
	}
	for {
		if err := unix.Fchmod(fd, m); err != unix.EINTR {
			return err
		}
	}
}

// Commit renames the temporary file over the target. A name that stopped
// being a regular file since Stage is refused, as Write refuses it.
func (s *Staged) Commit() error {
	t := s.t
	s.closeFD()
	if s.tmp == "" {
		return nil // in place already: its folder's Publish shows it
	}
	if err := t.hold(); err != nil {
		return err // renamed nowhere: its folder is not the one staged into
	}
	defer t.release()
	if t.BeforeRename != nil {
		t.BeforeRename(join(t.Dir, s.tmp))
	}
	if t.absent {
		// Nothing was there: the rename itself refuses whatever appeared
		// since, with no look before it.
		switch err := renameNoReplace(t.fd, s.tmp, t.Name); err {
		case nil:
			s.stampIn()
			return nil
		case unix.EEXIST:
			unix.Unlinkat(t.fd, s.tmp, 0)
			return &ChangedError{Path: t.Path, What: "appeared while charter wrote it"}
		case errNoReplace:
		default:
			unix.Unlinkat(t.fd, s.tmp, 0)
			return fmt.Errorf("write %s: %w", t.Path, err)
		}
	}
	var st unix.Stat_t
	if err := unix.Fstatat(t.fd, t.Name, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil && st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Unlinkat(t.fd, s.tmp, 0)
		return &ChangedError{Path: t.Path, What: "stopped being a regular file"}
	}
	if err := unix.Renameat(t.fd, s.tmp, t.fd, t.Name); err != nil {
		unix.Unlinkat(t.fd, s.tmp, 0)
		return fmt.Errorf("write %s: %w", t.Path, err)
	}
	s.stampIn()
	return nil
}

// stampIn stamps the committed file in its folder, the clock read first.
func (s *Staged) stampIn() {
	s.taken = time.Now()
	s.stamp, s.ok = s.t.StampIn(s.t.Name)
}

// Stamp is the file's stamp once committed (and, in a staged folder,
// published): taken after its rename in the folder that rename held, or
// for a file made in place, as it was written. taken is the kernel's
// clock just before it, which a stamp's raciness is judged against (a
// later time would pass a stamp a change in the same tick could share).
// ok is false when unknown.
func (s *Staged) Stamp() (st Stamp, taken time.Time, ok bool) { return s.stamp, s.taken, s.ok }

// Abort removes the temporary file.
func (s *Staged) Abort() {
	s.closeFD()
	if s.t.hold() != nil {
		return // the file is in a folder no longer there to reach
	}
	defer s.t.release()
	unix.Unlinkat(s.t.fd, cmp.Or(s.tmp, s.t.Name), 0)
}

func (s *Staged) closeFD() {
	if s.fd >= 0 {
		unix.Close(s.fd)
		s.fd = -1
	}
}

// Target is the walked target the file is staged for.
func (s *Staged) Target() *Target { return s.t }

// SyncDir makes a rename in t's directory durable: an fsync of that one
// directory (a file written alone after a batch's SyncDirs).
func SyncDir(t *Target) { syncDirsEach([]*Target{t}) }

// syncDirsEach fsyncs each distinct directory of the targets once, after
// their renames: the new names are then durable.
func syncDirsEach(ts []*Target) {
	seen := map[string]bool{}
	for _, t := range ts {
		if t.Missing || seen[t.Dir] {
			continue
		}
		seen[t.Dir] = true
		if t.hold() != nil {
			continue
		}
		if rfd, err := t.readFD(); err == nil {
			unix.Fsync(rfd) // a directory that cannot be synced still holds the names
		}
		t.release()
	}
}

// Remove deletes the target's file (a regular file only) in the handle
// the walk checked; a missing one is no error.
func (t *Target) Remove() error {
	if t.Missing {
		return nil
	}
	var st unix.Stat_t
	if err := unix.Fstatat(t.fd, t.Name, &st, unix.AT_SYMLINK_NOFOLLOW); err == unix.ENOENT {
		return nil
	} else if err != nil {
		return &fs.PathError{Op: "remove", Path: t.Path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return &NotRegularError{Path: t.Path}
	}
	if err := unix.Unlinkat(t.fd, t.Name, 0); err != nil && err != unix.ENOENT {
		return &fs.PathError{Op: "remove", Path: t.Path, Err: err}
	}
	return nil
}

// RemoveEmptyDir removes the target when it is an empty directory; a
// directory holding anything is left as it is (reported false).
func (t *Target) RemoveEmptyDir() bool {
	if t.Missing {
		return false
	}
	return unix.Unlinkat(t.fd, t.Name, unix.AT_REMOVEDIR) == nil
}

// errNoReplace: the system has no rename that refuses an existing name.
var errNoReplace = errors.New("no exclusive rename")
