//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import "golang.org/x/sys/unix"

// asFolder is p with the identity of the folder it names, looked up in the
// directory the walk holds without following a link.
func (t *Target) asFolder(p Place) Place {
	var st unix.Stat_t
	if t.fd < 0 || unix.Fstatat(t.fd, t.Name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return p
	}
	p.folder, p.fdev, p.fino = true, uint64(st.Dev), uint64(st.Ino)
	return p
}
