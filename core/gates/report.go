package gates

import (
	"io/fs"
	"syscall"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/fsys"
)

// openReport opens the coverage report at path: a regular file, held to
// the coverage cap. The report's name comes from the project's settings,
// so on the OS it must resolve inside cfg.Dir, the project root the gates
// run in: a link out of it, or an absolute path elsewhere, is refused
// (code outside_project) rather than read. The file opened is the one the
// walk checked.
func openReport(cfg Config, path string) (afero.File, error) {
	switch {
	case cfg.Fs != nil:
		return fsys.OpenFileFs(cfg.Fs, path, fsys.KindCoverage)
	case cfg.Dir == "":
		return fsys.OpenFileFs(afero.NewOsFs(), path, fsys.KindCoverage)
	}
	t, err := fsys.Walk(path, fsys.Options{Boundary: cfg.Dir, Confirmed: true})
	if err != nil {
		return nil, err
	}
	defer t.Close()
	f, err := t.Open(fsys.KindCoverage)
	if err == nil && f == nil {
		err = &fs.PathError{Op: "open", Path: path, Err: syscall.ENOENT} // as os.Open says it
	}
	if err != nil {
		return nil, err
	}
	return fsys.Capped(f, path, fsys.KindCoverage), nil
}
