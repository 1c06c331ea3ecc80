//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import "golang.org/x/sys/unix"

// StampIn is the stamp of the regular file name in the held directory d,
// without following a link; ok is false for anything else (a link, a
// folder, a name missing). Safe from several goroutines at once.
func (d *Target) StampIn(name string) (s Stamp, ok bool) {
	var st unix.Stat_t
	if unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return Stamp{}, false
	}
	return Stamp{
		Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size, Mode: uint32(st.Mode),
		Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(),
	}, true
}
