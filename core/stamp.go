package core

import (
	"io/fs"
)

// Private reports whether fi is a regular file of charter's user that no
// one else may write (a cache another account could have planted is not
// trusted). Where owners are unknown, only the mode counts.
func (s *System) Private(fi fs.FileInfo) bool {
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o022 != 0 {
		return false
	}
	owner, ok := FileOwner(fi)
	me, known := s.RunsAs()
	return !ok || !known || owner == me
}
