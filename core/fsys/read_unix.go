//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"os"

	"golang.org/x/sys/unix"
)

// readFlags open a file for reading without waiting: O_NONBLOCK makes the
// open of a FIFO return at once (with or without a writer), O_NOCTTY keeps
// a terminal from becoming charter's. Go adds O_CLOEXEC itself.
const readFlags = os.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC

// Open opens path for reading, following links as the operating system
// does, when it is a regular file of at most k.Max() bytes (a missing file
// is an error that wraps fs.ErrNotExist). Anything else is refused with
// *NotRegularError, *IsDirError or *TooLargeError, and the open never
// blocks: a named pipe or a device is seen by a stat before the open and,
// should it be swapped in after that stat, by fstat of the opened
// descriptor. A caller that streams the file is held to the cap by what
// it reads; ReadAll enforces it.
func Open(path string, k Kind) (*os.File, error) {
	if err := preCheck(path, k); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, readFlags, 0)
	if err != nil {
		return nil, err
	}
	if err := checkOpened(f, path, k); err != nil {
		return nil, err
	}
	return f, nil
}
