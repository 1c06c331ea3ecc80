package core

import (
	"path/filepath"

	"github.com/spf13/afero"
)

// Core reads and writes through s.Fs and nothing else, with one exception,
// kept here: afero cannot resolve a path through its symbolic links, so
// evalSymlinks asks the operating system. It does so only when s.Fs is the
// operating system's own file system; any other file system core is given
// (a MemMapFs in tests) has no links, and a path there is already real.

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
