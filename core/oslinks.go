package core

import (
	"path/filepath"

	"github.com/spf13/afero"
)

// Core reads and writes through s.Fs, with two exceptions, both only when
// s.Fs is the operating system's own file system: guarded writes and locks
// go through core/fsys, which walks directory handles without following
// links (afero has no such calls), and evalSymlinks asks the operating
// system to resolve links. Any other file system core is given (a MemMapFs
// in tests) has no links, so a path there is already real and nothing can
// redirect a write.

// onOS reports whether s.Fs is the operating system's file system.
func (s *System) onOS() bool {
	_, ok := s.Fs.(*afero.OsFs)
	return ok
}

// evalSymlinks resolves every link in p, as filepath.EvalSymlinks does.
func (s *System) evalSymlinks(p string) (string, error) {
	if !s.onOS() {
		return p, nil
	}
	return filepath.EvalSymlinks(p)
}
