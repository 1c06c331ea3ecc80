//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive flock on path, a lock file charter owns;
// closing the descriptor releases it.
func lockFile(path string) (func(), error) {
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	for {
		err = unix.Flock(fd, unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "flock", Path: path, Err: err}
	}
	return func() { unix.Close(fd) }, nil
}
