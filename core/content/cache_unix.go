//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package content

import (
	"errors"

	"golang.org/x/sys/unix"
)

// stampOf is path's stamp, without following a link. missing: nothing
// is there; ok false: it cannot be stamped.
func stampOf(path string) (st fileStamp, missing, ok bool) {
	var s unix.Stat_t
	if err := unix.Lstat(path, &s); err != nil {
		return fileStamp{}, errors.Is(err, unix.ENOENT), false
	}
	return fileStamp{
		size: s.Size, mode: uint32(s.Mode), mtime: s.Mtim.Nano(), ctime: s.Ctim.Nano(),
		dev: uint64(s.Dev), ino: uint64(s.Ino),
	}, false, true
}

func isDir(st fileStamp) bool  { return st.mode&unix.S_IFMT == unix.S_IFDIR }
func isLink(st fileStamp) bool { return st.mode&unix.S_IFMT == unix.S_IFLNK }
