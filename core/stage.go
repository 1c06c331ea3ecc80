package core

import (
	"github.com/agentkit/charter/core/fsys"
)

// Batches of whole files (content projection, SPEC §12) go through the same
// walk as every guarded write: a link the companion shares stops it unless
// confirmed, a repository's link out of the project is refused, and missing
// directories are made with the mode rules of WriteOptions. The caller holds
// one lock for the whole batch (WithLock of its record), under which any
// temporary file of a target's name is a killed writer's.

// StageFile walks to path and writes data to a temporary file beside it
// (fsys.Target.Stage); Commit renames it into place. Only on the operating
// system's file system.
func (s *System) StageFile(path string, o WriteOptions, data []byte) (*fsys.Staged, error) {
	if !s.onOS() {
		return nil, Errorf(CodeNotSupported, "%s: projecting files needs the operating system's file system", path)
	}
	opts := s.walkOptions(o.ConfirmShared, o.Within)
	opts.Create, opts.DirMode = true, o.dirMode()
	t, err := fsys.Walk(path, opts)
	if err != nil {
		return nil, walkError(path, err)
	}
	t.RemoveStale() // best effort: the caller's lock makes any leftover stale
	t.BeforeRename = s.beforeRename
	st, err := t.Stage(data, o.perm())
	if err != nil {
		t.Close()
		return nil, err
	}
	return st, nil
}

// RemoveFile deletes the regular file at path through the guarded walk; a
// missing file or directory is no error.
func (s *System) RemoveFile(path string, o WriteOptions) error {
	if !s.onOS() {
		if err := s.Fs.Remove(path); err != nil && !IsAbsent(err) {
			return err
		}
		return nil
	}
	t, err := fsys.Walk(path, s.walkOptions(o.ConfirmShared, o.Within))
	if err != nil {
		return walkError(path, err)
	}
	defer t.Close()
	t.RemoveStale()
	return t.Remove()
}

// RemoveEmptyDir removes the directory at path when it is empty, through
// the guarded walk, and reports whether it did.
func (s *System) RemoveEmptyDir(path string, o WriteOptions) (bool, error) {
	if !s.onOS() {
		return s.Fs.Remove(path) == nil, nil
	}
	t, err := fsys.Walk(path, s.walkOptions(o.ConfirmShared, o.Within))
	if err != nil {
		return false, walkError(path, err)
	}
	defer t.Close()
	return t.IsDir && t.RemoveEmptyDir(), nil
}
