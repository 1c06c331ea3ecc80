//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// StampsVouch: a stamp here can vouch that a file is unchanged.
const StampsVouch = true

// Lstamp is path's stamp without following a link. missing: nothing is
// there (the stamp is then Absent); ok false: it could not be stamped.
func Lstamp(path string) (s Stamp, missing, ok bool) {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return Stamp{Mode: modeAbsent}, true, true
		}
		return Stamp{}, false, false
	}
	return stampOf(&st), false, true
}

// LstampIn is the stamp of name in the open folder dir, without following
// a link: what Lstamp of the joined path says, without resolving the path
// again. ok is false when it cannot be stamped (gone since it was listed).
func LstampIn(dir *os.File, name string) (Stamp, bool) {
	var st unix.Stat_t
	if unix.Fstatat(int(dir.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return Stamp{}, false
	}
	return stampOf(&st), true
}

// StampIn is the stamp of the regular file name in the held directory d,
// without following a link; ok is false for anything else (a link, a
// folder, a name missing). Safe from several goroutines at once.
func (d *Target) StampIn(name string) (s Stamp, ok bool) {
	if d.hold() != nil {
		return Stamp{}, false
	}
	defer d.release()
	var st unix.Stat_t
	if unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return Stamp{}, false
	}
	return stampOf(&st), true
}

func stampOf(st *unix.Stat_t) Stamp {
	return Stamp{
		Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size, Mode: uint32(st.Mode),
		Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(),
	}
}
