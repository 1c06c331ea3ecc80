//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsys

import "os"

// Open opens path for reading when it is a regular file of at most
// k.Max() bytes (a missing file is an error that wraps fs.ErrNotExist).
//
// Windows has no O_NONBLOCK: the path is looked at (following links)
// before the open, and the opened handle again after it. The window that
// remains is a named pipe or device swapped in between the two looks,
// which the open may then wait on; the look after the open still refuses
// it once the open returns, so nothing is read from it.
func Open(path string, k Kind) (*os.File, error) {
	if err := preCheck(path, k); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if err := checkOpened(f, path, k); err != nil {
		return nil, err
	}
	return f, nil
}

func readFile(path string, k Kind) ([]byte, error) {
	f, err := Open(path, k)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, path, k)
}
