package fsys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

func (t *portableTarget) Read(k Kind) ([]byte, error) {
	f, err := t.Open(k)
	if f == nil || err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, t.Path, k)
}

// Open opens the file for reading when it is a regular file of at most
// k.Max() bytes; nil when it does not exist. It is looked at before the
// open and the opened handle after it (Open's window, read_other.go).
func (t *portableTarget) Open(k Kind) (*os.File, error) {
	if t.IsDir {
		return nil, &IsDirError{Path: t.Path}
	}
	if t.Missing {
		return nil, kernelSees(t.Path)
	}
	fi, err := os.Lstat(t.full())
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, kernelSees(t.Path)
	case err != nil:
		return nil, err
	case isLinkish(fi):
		return nil, &ChangedError{Path: t.Path, What: "became a link"}
	case !fi.Mode().IsRegular():
		return nil, refuse(t.Path, fi.Mode())
	case fi.Size() > k.Max():
		return nil, &TooLargeError{Path: t.Path, Kind: k, Size: fi.Size()}
	}
	f, err := os.Open(t.full())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", t.Path, err)
	}
	if err := checkOpened(f, t.Path, k); err != nil {
		return nil, err
	}
	return f, nil
}
