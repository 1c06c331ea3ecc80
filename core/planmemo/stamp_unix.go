//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package planmemo

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"

	"github.com/agentkit/charter/core/fsys"
)

// lstamp is path's stamp without following a link: missing when nothing
// is there, ok false when it cannot be stamped.
func lstamp(path string) (st fsys.Stamp, missing, ok bool) {
	var s unix.Stat_t
	if err := unix.Lstat(path, &s); err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return absent, true, true
		}
		return fsys.Stamp{}, false, false
	}
	return fsys.Stamp{
		Dev: uint64(s.Dev), Ino: uint64(s.Ino), Size: s.Size, Mode: uint32(s.Mode),
		Mtime: s.Mtim.Nano(), Ctime: s.Ctim.Nano(),
	}, false, true
}

func isDir(st fsys.Stamp) bool  { return st.Mode&unix.S_IFMT == unix.S_IFDIR }
func isLink(st fsys.Stamp) bool { return st.Mode&unix.S_IFMT == unix.S_IFLNK }
func isFile(st fsys.Stamp) bool { return st.Mode&unix.S_IFMT == unix.S_IFREG }

// supported: stamps can vouch for files here.
const supported = true

// readNoFollow reads the regular file at path, never through a link.
func readNoFollow(path string) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, errStale
	}
	return io.ReadAll(f)
}

const fileType = unix.S_IFMT
