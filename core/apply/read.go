package apply

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
)

// open opens the target's file for reading: a project target only inside
// the project (core.OpenWithin), fs.ErrNotExist when it does not exist.
func (t Target) open(sys *core.System) (afero.File, error) {
	return sys.OpenWithin(t.within, t.Path)
}

// sameContent reports whether the file holds exactly want, reading it a
// piece at a time. A missing file is not the same.
func (t Target) sameContent(sys *core.System, want []byte) (bool, error) {
	path := t.Path
	f, err := t.open(sys)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		n, err := io.ReadFull(f, buf)
		if n > len(want) || !bytes.Equal(buf[:n], want[:n]) {
			return false, nil
		}
		want = want[n:]
		switch {
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			return len(want) == 0, nil
		case err != nil:
			return false, fmt.Errorf("read %s: %w", path, err)
		}
	}
}

// read returns a file's bytes, nil when it does not exist.
func (t Target) read(sys *core.System) ([]byte, error) {
	f, err := t.open(sys)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", t.Path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", t.Path, err)
	}
	if data == nil {
		data = []byte{} // it exists, empty
	}
	return data, nil
}
