//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// Target is a walked path: the directory that holds it, open, and its name.
// Close it when done.
type Target struct {
	Path    string // the path as given, cleaned
	Dir     string // physical path of the directory the walk reached
	Name    string // the file's name in Dir (after following a final link)
	Shared  string // the first link inside the tree the walk followed, "" if none
	Missing bool   // Dir does not exist (a walk without Create); nothing is open
	IsDir   bool   // the target itself is a directory

	// BeforeRename, when set, runs after the temporary file is complete and
	// before the rename: tests use it to simulate a crash.
	BeforeRename func(tmp string)
	// Written, when set, runs once the new bytes are in the temporary
	// file, before they are made durable (WriteOptions.Written).
	Written func()
	// Volatile skips the fsyncs: for a record whose loss in a crash costs
	// nothing and whose readers take an unreadable one for none. The
	// rename still replaces the file whole.
	Volatile bool
	// DirSyncLater leaves the fsync of the folder after the rename to the
	// caller (SyncDir), which lets its locks go first: the next write in
	// the folder need not wait for it.
	DirSyncLater bool

	fd       int // Dir, opened without following links; -1 when Missing
	rfd      int // Dir opened for reading (fsync, listing, flock); -1 until needed
	dev, ino uint64
	chain    []Place // the directories on the way and the file itself (Reaches)
	own      Place   // a batch's file: itself, after its folder's chain (shared)

	held          *Target  // the Batch's directory whose handles fd and rfd are
	inside, bound bool     // a held directory: in the companion tree, in the boundary
	names         []string // a held directory's listing, read once (RemoveStale)
	looked        bool     // a batch just found the name absent or a regular file
	absent        bool     // ... absent: Commit may not replace what appears there
	made          bool     // a held directory this batch created: empty but for its own
	hidden        bool     // in a folder Publish has yet to rename into place
	staged        string   // a held directory made as this name in parent (StageNew)
	parent        *Target  // ... the held directory it is renamed in
	dangling      string   // Missing below a folder a link names: the link

	batch     *Batch    // a held directory's batch
	up        *Target   // ... its held parent, to open it again in (capped)
	pins      int       // ... uses that keep it open
	borrowers []*Target // ... the batch's targets whose fd is its
}

// Place is where the file itself is: Name in the directory the walk holds.
// Missing or ending on a directory: the zero Place, which matches nothing.
func (t *Target) Place() Place {
	if t.Missing || t.fd < 0 {
		return Place{}
	}
	return Place{Path: t.full(), Name: t.Name, dev: t.dev, ino: t.ino}
}

// Close releases the directory handles (a Batch's target leaves them to
// the Batch).
func (t *Target) Close() error {
	if t.held != nil {
		t.fd, t.rfd, t.held = -1, -1, nil
		return nil
	}
	if t.rfd >= 0 {
		unix.Close(t.rfd)
		t.rfd = -1
	}
	if t.fd >= 0 {
		unix.Close(t.fd)
		t.fd = -1
	}
	return nil
}

// readFD opens Dir for reading: listing, fsync and flock need a real
// descriptor, which Linux's O_PATH handles are not.
func (t *Target) readFD() (int, error) {
	if t.held != nil {
		return t.held.readFD()
	}
	if t.rfd < 0 {
		fd, err := unix.Openat(t.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return -1, &fs.PathError{Op: "open", Path: t.Dir, Err: err}
		}
		t.rfd = fd
	}
	return t.rfd, nil
}

func (t *Target) full() string { return join(t.Dir, t.Name) }

// kernelSees is kernelSees(t.Path) for a path the walk reached through a
// link; a path that is its own physical path has no link for the kernel
// to follow elsewhere, and is missing for it too.
func (t *Target) kernelSees() error {
	if t.Path == t.full() {
		return nil
	}
	return kernelSees(t.Path)
}

// Read returns the file's bytes, nil when it does not exist (an empty file
// is a non-nil empty slice). Like Open, it reads only a regular file, and
// at most k.Max() bytes of it.
func (t *Target) Read(k Kind) ([]byte, error) {
	fd, err := t.openRead()
	if fd < 0 || err != nil {
		return nil, err
	}
	return readOpened(fd, t.full(), t.Path, k) // a plan reads every target it projects
}

// Open opens the file for reading, without following a link and without
// blocking (readFlags); nil when it does not exist. Anything but a regular
// file of at most k.Max() bytes is refused, as by the package's Open. A
// caller that streams it never holds it in memory.
func (t *Target) Open(k Kind) (*os.File, error) {
	fd, err := t.openRead()
	if fd < 0 || err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), t.full())
	if err := checkOpened(f, t.Path, k); err != nil {
		return nil, err
	}
	return f, nil
}

// openRead opens the file without following a link and without blocking:
// -1 when it does not exist.
func (t *Target) openRead() (int, error) {
	if t.IsDir {
		return -1, &IsDirError{Path: t.Path}
	}
	if t.Missing {
		return -1, t.kernelSees()
	}
	fd, err := unix.Openat(t.fd, t.Name, readFlags|unix.O_NOFOLLOW, 0)
	switch {
	case err == unix.ENOENT:
		return -1, t.kernelSees()
	case err == unix.ELOOP || err == unix.EMLINK:
		return -1, &ChangedError{Path: t.Path, What: "became a link"}
	case err != nil:
		return -1, &fs.PathError{Op: "read", Path: t.Path, Err: err}
	}
	return fd, nil
}

// Write replaces the file with data atomically in Dir's handle: a
// temporary file (TempName) created there without following links, fsync,
// rename within the handle, fsync of the directory. Any failure removes the
// temporary file. A read-only file (no owner write bit) is refused.
func (t *Target) Write(data []byte, p Perm) error {
	return t.WriteParts([][]byte{data}, p)
}

// WriteParts is Write of the parts one after the other: a large file
// edited in the middle is written from its pieces, never joined in memory.
func (t *Target) WriteParts(parts [][]byte, p Perm) error {
	return t.WriteFunc(func(w io.Writer) error { return writeParts(w, parts) }, p)
}

// RemoveStale removes charter's temporary files for this name that a
// killed writer left behind. Call it only holding the file's lock: every
// live writer of this name holds that lock too, so any temporary file of
// the name is stale.
func (t *Target) RemoveStale() (int, error) { return t.removeTemps(time.Time{}) }

// RemoveStaleBefore removes only those temporary files of this name last
// written before cutoff: for a writer that holds no lock, to which a fresh
// one may belong to a live writer (see core's WriteAtomicOpts).
func (t *Target) RemoveStaleBefore(cutoff time.Time) (int, error) {
	if cutoff.IsZero() {
		return 0, nil // no cutoff is no proof of age
	}
	return t.removeTemps(cutoff)
}

// removeTemps removes the temporary files of this name, with a cutoff
// only those last written before it.
func (t *Target) removeTemps(cutoff time.Time) (int, error) {
	if t.Missing || t.IsDir {
		return 0, nil
	}
	var names []string
	var err error
	if t.held != nil {
		names, err = t.held.listing()
	} else {
		names, err = t.list()
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for _, name := range names {
		if !isTempOf(name, t.Name) {
			continue
		}
		var st unix.Stat_t
		if unix.Fstatat(t.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			continue
		}
		if !cutoff.IsZero() && !time.Unix(st.Mtim.Unix()).Before(cutoff) {
			continue
		}
		if err := unix.Unlinkat(t.fd, name, 0); err == nil {
			n++
		}
	}
	return n, nil
}

func (t *Target) list() ([]string, error) {
	rfd, err := t.readFD()
	if err != nil {
		return nil, err
	}
	dup, err := unix.Dup(rfd)
	if err != nil {
		return nil, &fs.PathError{Op: "list", Path: t.Dir, Err: err}
	}
	d := os.NewFile(uintptr(dup), t.Dir)
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", t.Dir, err)
	}
	return names, nil
}

// lockKeys names the file for locking: by the physical path (stable when
// the walk had to stop at a missing directory) and, when the directory
// exists, by its identity (stable across spellings the text cannot fold).
func (t *Target) lockKeys() []string {
	keys := []string{textKey(t.Dir, t.Name)}
	if !t.Missing && !t.IsDir {
		keys = append(keys, fmt.Sprintf("id:%d:%d/%s", t.dev, t.ino, t.Name))
	}
	return keys
}

// lockDir takes flock on the final directory itself, the one lock that
// two charters with different config roots share. File systems that cannot
// lock a directory (NFS emulates flock with byte-range locks, which need a
// descriptor open for writing) fall back to the stripes alone.
func (t *Target) lockDir() (func(), error) {
	if t.Missing || t.IsDir {
		return func() {}, nil
	}
	rfd, err := t.readFD()
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(rfd, unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	switch {
	case err == nil:
		return func() { unix.Flock(rfd, unix.LOCK_UN) }, nil
	case err == unix.EBADF || err == unix.ENOLCK || err == unix.EINVAL || err == unix.EOPNOTSUPP || err == unix.ENOTSUP:
		return func() {}, nil
	}
	return nil, &fs.PathError{Op: "lock", Path: t.Dir, Err: err}
}
