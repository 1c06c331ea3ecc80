//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"io"
	"io/fs"
	"os"
	"time"

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

// readFile is Open read whole, on a raw descriptor while the file is a
// regular one within the cap: an os.File's first open in a run sets up
// Go's poller, for a file that is never polled. Anything else is refused
// by checkOpened, as Open refuses it.
func readFile(path string, k Kind) ([]byte, error) {
	if err := preCheck(path, k); err != nil {
		return nil, err
	}
	fd, err := unix.Open(path, readFlags, 0)
	for err == unix.EINTR {
		fd, err = unix.Open(path, readFlags, 0)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return readOpened(fd, path, path, k)
}

// readOpened reads the file fd, opened at name for path, whole and
// closes it: one fstat and raw reads while it is a regular file within the
// cap; anything else refused by checkOpened, as Open refuses it.
func readOpened(fd int, name, path string, k Kind) ([]byte, error) {
	var st unix.Stat_t
	return readStated(fd, &st, unix.Fstat(fd, &st), name, path, k)
}

// readStated is readOpened for a file already fstat'ed (st, or the
// fstat's error).
func readStated(fd int, st *unix.Stat_t, statErr error, name, path string, k Kind) ([]byte, error) {
	if statErr != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size > k.Max() {
		f := os.NewFile(uintptr(fd), name)
		if err := checkOpened(f, path, k); err != nil {
			return nil, err
		}
		defer f.Close()
		return ReadAll(f, path, k)
	}
	defer unix.Close(fd)
	return ReadAll(&rawFile{fd: fd, size: st.Size}, path, k)
}

// rawFile is ReadAll's view of a raw descriptor already fstat'ed: no
// os.File (a fcntl to wrap it) and no second fstat. A regular file is read
// as fstat saw it: once its size is in, that is its end, without a read
// to find it (the file is a snapshot either way while someone writes it).
type rawFile struct {
	fd   int
	size int64
	got  int64
}

func (r *rawFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if r.size > 0 && r.got >= r.size {
		return 0, io.EOF
	}
	for {
		n, err := unix.Read(r.fd, p)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0:
			return 0, io.EOF
		}
		r.got += int64(n)
		return n, nil
	}
}

func (r *rawFile) Stat() (fs.FileInfo, error) { return sizeInfo(r.size), nil }

// sizeInfo is a regular file's FileInfo that knows only its size.
type sizeInfo int64

func (s sizeInfo) Name() string       { return "" }
func (s sizeInfo) Size() int64        { return int64(s) }
func (s sizeInfo) Mode() fs.FileMode  { return 0 }
func (s sizeInfo) ModTime() time.Time { return time.Time{} }
func (s sizeInfo) IsDir() bool        { return false }
func (s sizeInfo) Sys() any           { return nil }
