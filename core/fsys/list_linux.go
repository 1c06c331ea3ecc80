package fsys

import (
	"io/fs"
	"slices"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// listHeld lists the open folder fd as readDirMax does (at most n
// entries, all when n <= 0; sorted when all were read), each entry
// stamped in that folder: one getdents and one fstatat a name, where
// os.File's Readdir adds an fcntl, an lstat of the whole path for each
// name and Go's file bookkeeping (at 1,000 skill folders, most of their
// listing's time).
func listHeld(fd int, n int) ([]fs.FileInfo, error) {
	var entries []fs.FileInfo
	buf := make([]byte, 8<<10)
	var names []string
	for n <= 0 || len(entries) < n {
		got, err := unix.ReadDirent(fd, buf)
		if err != nil {
			return nil, err
		}
		if got <= 0 {
			break
		}
		_, _, names = unix.ParseDirent(buf[:got], -1, names[:0])
		for _, name := range names {
			if n > 0 && len(entries) >= n {
				break
			}
			var st unix.Stat_t
			if err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err == unix.ENOENT {
				continue // removed since it was listed, as Readdir skips it
			} else if err != nil {
				return nil, err
			}
			entries = append(entries, &heldInfo{name: name, st: st})
		}
	}
	if n <= 0 || len(entries) < n {
		slices.SortFunc(entries, func(a, b fs.FileInfo) int { return strings.Compare(a.Name(), b.Name()) })
	}
	return entries, nil
}

// heldInfo is an entry's FileInfo as os.Lstat gives it.
type heldInfo struct {
	name string
	st   unix.Stat_t
}

// Both packages make Stat_t of the kernel's struct stat: the same bytes
// (this does not compile where their sizes differ).
var _ [unsafe.Sizeof(syscall.Stat_t{})]byte = [unsafe.Sizeof(unix.Stat_t{})]byte{}

func (h *heldInfo) Name() string       { return h.name }
func (h *heldInfo) Size() int64        { return h.st.Size }
func (h *heldInfo) ModTime() time.Time { return time.Unix(h.st.Mtim.Unix()) }
func (h *heldInfo) IsDir() bool        { return h.Mode().IsDir() }
func (h *heldInfo) Sys() any           { return (*syscall.Stat_t)(unsafe.Pointer(&h.st)) } // as os.Lstat's

func (h *heldInfo) Mode() fs.FileMode {
	m := fs.FileMode(h.st.Mode & 0o777)
	switch h.st.Mode & unix.S_IFMT {
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if h.st.Mode&unix.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if h.st.Mode&unix.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if h.st.Mode&unix.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}
