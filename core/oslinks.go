package core

import (
	"path/filepath"

	"github.com/agentkit/charter/core/fsys"
)

// Core reads and writes through s.Fs, with two exceptions, both only when
// s.Fs is the operating system's own file system: guarded writes and locks
// go through core/fsys, which walks directory handles without following
// links (afero has no such calls), and evalSymlinks asks the operating
// system to resolve links. Any other file system core is given (a MemMapFs
// in tests) has no links, so a path there is already real and nothing can
// redirect a write.

// onOS reports whether s.Fs reads the operating system's file system
// (itself, or read-only: fsys.ReadOnlyFs). Every write on the OS path
// asks writable first, so a read-only System never reaches fsys's writes.
func (s *System) onOS() bool { return fsys.IsOS(s.Fs) }

// ReadOnly is s with a file system that refuses every write
// (fsys.ReadOnlyFs): what MCP and a dry run work on. why names that run in
// the error a write gets.
func (s *System) ReadOnly(why string) *System {
	ro := *s
	ro.Fs = fsys.NewReadOnlyFs(s.Fs, why)
	return &ro
}

// writable is nil unless s only reads: then the error of writing path.
func (s *System) writable(op, path string) error {
	if ro, ok := s.Fs.(*fsys.ReadOnlyFs); ok {
		return ro.Refuse(op, path)
	}
	return nil
}

// evalSymlinks resolves every link in p, as filepath.EvalSymlinks does.
func (s *System) evalSymlinks(p string) (string, error) {
	if !s.onOS() {
		return p, nil
	}
	return filepath.EvalSymlinks(p)
}
