package fsys

import (
	"context"
	"io/fs"
	"path/filepath"
)

// Batches of whole files (content projection, SPEC §12) go through the same
// walk as every guarded write: a link the companion shares stops it unless
// confirmed, a repository's link out of the project is refused, and missing
// directories are made with the mode rules of WriteOptions. The caller holds
// one lock for the whole batch (WithLock of its record), under which any
// temporary file of a target's name is a killed writer's.

// StageFile walks to path and writes data to a temporary file beside it
// (Target.Stage), with the checks of WriteAtomicOpts (a shared source
// unless o.ConfirmShared); Commit renames it into place. The caller holds
// the file's lock (WithLock) from here to Commit. Only on the operating
// system's file system.
func (s *Files) StageFile(path string, o WriteOptions, data []byte) (*Staged, error) {
	if err := s.writable("write", path); err != nil {
		return nil, err
	}
	if !s.onOS() {
		return nil, &NotSupportedError{Path: path}
	}
	opts := s.writeWalk(o)
	opts.Create, opts.DirMode = true, o.dirMode()
	t, err := Walk(path, opts)
	if err != nil {
		return nil, s.walkError(path, err)
	}
	if !o.ConfirmShared {
		if err := s.guard().Sources()(path, t); err != nil {
			t.Close()
			return nil, err
		}
	}
	t.RemoveStale() // best effort: the caller's lock makes any leftover stale
	t.BeforeRename = s.BeforeRename
	st, err := t.Stage(data, o.perm())
	if err != nil {
		t.Close()
		return nil, err
	}
	return st, nil
}

// Stager stages a batch of files with one walk per directory
// (Batch): every check of StageFile, without walking from "/" again
// for each file of a folder. Close it after committing or aborting.
type Stager struct {
	s       *Files
	o       WriteOptions
	batches map[fs.FileMode]*Batch // by the mode of directories made
}

// Stager starts a batch of StageFile with o; each file gives its own new
// mode. Only on the operating system's file system.
func (s *Files) Stager(o WriteOptions) (*Stager, error) {
	if err := s.writable("write", "the projected files"); err != nil {
		return nil, err
	}
	if !s.onOS() {
		return nil, &NotSupportedError{}
	}
	return &Stager{s: s, o: o, batches: map[fs.FileMode]*Batch{}}, nil
}

// target walks to path through the batch for new files of mode.
func (g *Stager) target(path string, mode fs.FileMode) (*Target, error) {
	o := g.o
	o.NewMode = mode
	b := g.batches[o.dirMode()]
	if b == nil {
		opts := g.s.writeWalk(o)
		opts.Create, opts.DirMode = true, o.dirMode()
		// New folders are made whole and published at once, unless a
		// batch for another folder mode might make the same name.
		opts.StageNew = len(g.batches) == 0
		b = NewBatch(opts)
		b.limit = maxHeldWriting
		g.batches[o.dirMode()] = b
	}
	t, err := b.Target(path)
	if err != nil {
		return nil, g.s.walkError(path, err)
	}
	t.RemoveStale() // best effort: the caller's lock makes any leftover stale
	t.BeforeRename = g.s.BeforeRename
	return t, nil
}

// File is one file of StageAll.
type File struct {
	Path string
	Mode fs.FileMode
	Data []byte
}

// StageAll stages each file: the walks one after another (the batch is
// not shared between goroutines), and each folder's files created and
// written by one goroutine of one per core as soon as that folder is walked.
// Creating names in one folder takes its lock, so a folder is one
// goroutine's. On an error nothing stays staged and the error names a
// file that failed; a cancelled ctx stops it between files with ctx's
// error (a big library's staging is most of an apply's time).
func (g *Stager) StageAll(ctx context.Context, files []File) ([]*Staged, error) {
	groups := Groups(len(files), func(i int) string { return filepath.Dir(files[i].Path) })
	ts := make([]*Target, len(files))
	staged := make([]*Staged, len(files))
	err := Pipeline(len(groups), func(k int) error {
		for _, i := range groups[k] {
			if err := ctx.Err(); err != nil {
				return err
			}
			t, err := g.target(files[i].Path, files[i].Mode)
			if err != nil {
				return err
			}
			ts[i] = t
		}
		return nil
	}, func(k int) error {
		for _, i := range groups[k] {
			if err := ctx.Err(); err != nil {
				return err
			}
			o := g.o
			o.NewMode = files[i].Mode
			var err error
			staged[i], err = ts[i].Stage(files[i].Data, o.perm())
			ts[i].release() // its folder may be let go until Commit
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		for i, s := range staged {
			if s != nil {
				s.Abort()
			}
			if ts[i] != nil {
				ts[i].Close()
			}
		}
		return nil, err
	}
	return staged, nil
}

// Publish renames the folders the batch made into place, after every
// file's Commit: each appears at once, with all its files.
func (g *Stager) Publish() error {
	for _, b := range g.batches {
		if err := b.Publish(); err != nil {
			return err
		}
	}
	return nil
}

// Close releases the directories the batch held, and removes the folders
// it made that were never published.
func (g *Stager) Close() {
	for _, b := range g.batches {
		b.Close()
	}
}

// RemoveFile deletes the regular file at path through the guarded walk; a
// missing file or directory is no error.
func (s *Files) RemoveFile(path string, o WriteOptions) error {
	if err := s.writable("remove", path); err != nil {
		return err
	}
	if !s.onOS() {
		if err := s.Fs.Remove(path); err != nil && !IsAbsent(err) {
			return err
		}
		return nil
	}
	t, err := Walk(path, s.writeWalk(o))
	if err != nil {
		return s.walkError(path, err)
	}
	defer t.Close()
	t.RemoveStale()
	return t.Remove()
}

// RemoveEmptyDir removes the directory at path when it is empty, through
// the guarded walk, and reports whether it did.
func (s *Files) RemoveEmptyDir(path string, o WriteOptions) (bool, error) {
	if err := s.writable("remove", path); err != nil {
		return false, err
	}
	if !s.onOS() {
		return s.Fs.Remove(path) == nil, nil
	}
	t, err := Walk(path, s.writeWalk(o))
	if err != nil {
		return false, s.walkError(path, err)
	}
	defer t.Close()
	return t.IsDir && t.RemoveEmptyDir(), nil
}
