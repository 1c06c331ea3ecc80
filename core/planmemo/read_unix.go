//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package planmemo

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

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
