package core

import (
	"io/fs"

	"github.com/agentkit/charter/core/fsys"
)

// StampEach is the stamp of each path that is a plain regular file in a
// folder the batch holds (no link on the way, as ReadEach's fast path
// reads it); ok[i] is false for every other path, which the caller reads.
func (r *Reader) StampEach(paths []string) (stamps []fsys.Stamp, ok []bool) {
	stamps, ok = make([]fsys.Stamp, len(paths)), make([]bool, len(paths))
	if r.b == nil {
		return stamps, ok
	}
	folders, names := make([]*fsys.Target, len(paths)), make([]string, len(paths))
	for i, p := range paths {
		folders[i], names[i], _ = r.b.Folder(p)
	}
	fsys.Parallel(len(paths), func(i int) error {
		if folders[i] != nil {
			stamps[i], ok[i] = folders[i].StampIn(names[i])
		}
		return nil
	})
	return stamps, ok
}

// Private reports whether fi is a regular file of charter's user that no
// one else may write (a cache another account could have planted is not
// trusted). Where owners are unknown, only the mode counts.
func (s *System) Private(fi fs.FileInfo) bool {
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o022 != 0 {
		return false
	}
	owner, ok := fileOwner(fi)
	me, known := s.euid()
	return !ok || !known || owner == me
}
