package gates

import (
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/agentkit/charter/core/fsys"
)

// openReport opens the coverage report at path. The report's name comes
// from the project's settings, so on the OS it must resolve inside
// cfg.Dir, the project root the gates run in: a link out of it, or an
// absolute path elsewhere, is refused (code outside_project) rather than
// read. The file opened is the one the walk checked.
func openReport(cfg Config, path string) (io.ReadCloser, error) {
	if cfg.Fs != nil {
		return cfg.Fs.Open(path)
	}
	if cfg.Dir == "" {
		return os.Open(path)
	}
	t, err := fsys.Walk(path, fsys.Options{Boundary: cfg.Dir, Confirmed: true})
	if err != nil {
		return nil, err
	}
	defer t.Close()
	f, err := t.Open()
	if err == nil && f == nil {
		err = &fs.PathError{Op: "open", Path: path, Err: syscall.ENOENT} // as os.Open says it
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}
