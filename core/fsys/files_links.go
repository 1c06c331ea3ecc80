package fsys

import (
	"path/filepath"
)

// Core reads and writes through s.Fs, with two exceptions, both only when
// s.Fs is the operating system's own file system: guarded writes and locks
// go through core/fsys, which walks directory handles without following
// links (afero has no such calls), and evalSymlinks asks the operating
// system to resolve links. Any other file system core is given (a MemMapFs
// in tests) has no links, so a path there is already real and nothing can
// redirect a write.

// onOS reports whether s.Fs reads the operating system's file system
// (itself, or read-only: ReadOnlyFs). Every write on the OS path
// asks writable first, so a read-only System never reaches fsys's writes.
func (s *Files) onOS() bool { return IsOS(s.Fs) }

// writable is nil unless s only reads: then the error of writing path.
func (s *Files) writable(op, path string) error {
	if ro, ok := s.Fs.(*ReadOnlyFs); ok {
		return ro.Refuse(op, path)
	}
	return nil
}

// evalSymlinks resolves every link in p, as filepath.EvalSymlinks does.
func (s *Files) evalSymlinks(p string) (string, error) {
	if !s.onOS() {
		return p, nil
	}
	return filepath.EvalSymlinks(p)
}
