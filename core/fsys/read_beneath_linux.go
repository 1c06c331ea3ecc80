package fsys

import (
	"path/filepath"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// beneathOff is set once openat2 is refused as a call (a kernel before
// 5.6, a seccomp filter): every read then takes the walk.
var beneathOff atomic.Bool

// beneathResolve opens a path below a directory handle only when the way
// holds no link of any kind, stays on the handle's mount and never climbs
// out of it: the kernel checks each step, against renames too.
const beneathResolve = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV

// readBeneath reads, in one openat2 call from the project root, a path a
// repository chose. Where that call opens the file or finds it missing, no
// link was met for the walk to judge and the file's folder is the root or
// below it, so the walk would answer the same; ok is false for anything
// else (a link on the way, the root's ".git", a worktree's or submodule's
// git folder, a path spelled outside the root), which the walk decides.
func (s *Files) readBeneath(root, path string, k Kind) (data []byte, ok bool, err error) {
	rel, below := relBelow(root, path)
	if !below || beneathOff.Load() || len(s.gitDirs(root)) > 0 {
		return nil, false, nil
	}
	dfd, release, err := s.heldSet().rootFD(root, openRoot)
	if err != nil {
		return nil, false, nil // the walk says what is wrong with the root
	}
	defer release()
	how := unix.OpenHow{Flags: uint64(readFlags | unix.O_NOFOLLOW), Resolve: beneathResolve}
	fd, err := unix.Openat2(dfd, rel, &how)
	for err == unix.EINTR {
		fd, err = unix.Openat2(dfd, rel, &how)
	}
	switch err {
	case nil:
		var st unix.Stat_t
		statErr := unix.Fstat(fd, &st)
		if statErr == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
			unix.Close(fd)
			return nil, false, nil // a folder: the walk words it
		}
		data, err := readStated(fd, &st, statErr, path, path, k)
		return data, true, err
	case unix.ENOENT:
		return nil, true, nil // missing, with no link on the way to it
	case unix.ENOSYS, unix.EPERM:
		beneathOff.Store(true)
	}
	return nil, false, nil
}

// relBelow is path relative to root when path is spelled below root and
// not in root's ".git".
func relBelow(root, path string) (string, bool) {
	if !filepath.IsAbs(root) || !filepath.IsAbs(path) {
		return "", false
	}
	root, path = filepath.Clean(root), filepath.Clean(path)
	prefix := root
	if root != "/" {
		prefix += "/"
	}
	rel, ok := strings.CutPrefix(path, prefix)
	if !ok || rel == "" {
		return "", false
	}
	first, _, _ := strings.Cut(rel, "/")
	return rel, !isGitName(first)
}

// openRoot opens a project root as reads below it start from it.
func openRoot(root string) (int, error) {
	return unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
}
