package apply

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// open opens the target's file for reading: only a regular file, held to
// its kind's cap, and for a project target only inside the project
// (core.OpenWithin); fs.ErrNotExist when it does not exist.
func (t Target) open(sys *core.System) (afero.File, error) {
	return sys.OpenWithin(t.within, t.Path, t.kind)
}

// sameContent reports whether the file holds exactly want, reading it a
// piece at a time. A missing file is not the same.
func (t Target) sameContent(sys *core.System, want []byte) (bool, error) {
	f, err := t.open(sys)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fsys.ReadError(t.Path, err)
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
			return false, fmt.Errorf("read %s: %w", t.Path, err)
		}
	}
}

// read returns the file's bytes, nil when it does not exist; only a
// regular file of at most its kind's cap is read.
func (t Target) read(sys *core.System) ([]byte, error) {
	return sys.ReadWithin(t.within, t.Path, t.kind)
}
