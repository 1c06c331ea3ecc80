//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// listHeld lists the open folder fd as readDirMax does.
func listHeld(fd int, n int) ([]fs.FileInfo, error) {
	dup, err := unix.Dup(fd)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(dup), ".")
	defer f.Close()
	return readDirMax(f, n)
}
