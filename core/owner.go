package core

import "io/fs"

// FileOwner is the uid that owns fi, when the file system says.
func FileOwner(fi fs.FileInfo) (int, bool) { return statOwner(fi.Sys()) }

// RunsAs is the user charter runs as; false where owners are not checked.
func (s *System) RunsAs() (int, bool) {
	if s.Euid != nil {
		return s.Euid(), true
	}
	return processEuid()
}
