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
// (Target.Stage); Commit renames it into place. Only on the operating
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
			if staged[i], err = ts[i].Stage(files[i].Data, o.perm()); err != nil {
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

// Reader is ReadWithin(root, ...) for a batch of files, walking each
// directory once (Batch). Close it when done.
type Reader struct {
	s    *Files
	root string
	b    *Batch
	srcs func(target string, t *Target) error // the companion's shared sources, read once
}

// Reader starts a batch of ReadWithin(root, ...).
func (s *Files) Reader(root string) *Reader { return s.reader(root, false) }

// WholeReader is Reader for the targets of whole files charter projects
// into the project (WriteOptions.Whole): a link inside the project on the
// way is refused as the write would refuse it, before anything is written.
func (s *Files) WholeReader(root string) *Reader { return s.reader(root, true) }

func (s *Files) reader(root string, whole bool) *Reader {
	r := &Reader{s: s, root: root}
	if root != "" && s.onOS() {
		// The companion home only names the first link inside its tree
		// (Target.Shared, for SharedAt): confirmed, every link is followed.
		o := s.walkOptions(true, root)
		o.StrictLinks = whole
		r.b = NewBatch(o)
	}
	return r
}

// SharedAt is System.SharedAt(path) through the batch, for a path Read
// already found inside the root.
func (r *Reader) SharedAt(path string) (Shared, error) {
	if r.b == nil {
		return r.s.SharedAt(path)
	}
	t, err := r.b.Target(path)
	if err != nil {
		return Shared{}, err
	}
	defer t.Close()
	if t.Shared != "" {
		return Shared{Path: t.Shared}, nil
	}
	if r.srcs == nil {
		r.srcs = r.s.guard().Sources()
	}
	return sharedOf(r.srcs(path, t)), nil
}

// Read is ReadWithin(root, path, k): nil for a missing file.
func (r *Reader) Read(path string, k Kind) ([]byte, error) {
	if r.b == nil {
		return r.s.ReadWithin(r.root, path, k)
	}
	var data []byte
	t, err := r.b.Target(path)
	if err == nil {
		data, err = t.Read(k)
		t.Close()
	}
	if r.b.Held() >= heldCap {
		r.b.Release()
	}
	switch { // as ReadWithin answers
	case IsAbsent(err):
		return nil, nil
	case err != nil:
		return nil, ReadError(path, err)
	}
	return data, nil
}

// ReadAll is Read of each path: the held folders looked up one after
// another, then the files read from a few goroutines at once, a plain
// regular file in its held folder (Target.ReadIn) and anything else
// through its walk (a link, a name missing). The first path (in order)
// that fails is the error.
func (r *Reader) ReadAll(paths []string, k Kind) ([][]byte, error) {
	out := make([][]byte, len(paths))
	err := r.ReadEach(paths, k, func(i int, data []byte) { out[i] = data })
	return out, err
}

// ReadEach is ReadAll handing each file to use as soon as it is read (nil
// for a missing one), from several goroutines at once, each i once: a
// caller that keeps only what it learns of the bytes holds a few files at
// a time, not the whole batch.
func (r *Reader) ReadEach(paths []string, k Kind, use func(i int, data []byte)) error {
	if r.b == nil {
		return r.readEach(paths, k, use)
	}
	var first error
	for start := 0; start < len(paths); {
		end := r.chunk(paths, start)
		err := r.readEach(paths[start:end], k, func(i int, data []byte) { use(start+i, data) })
		if first == nil {
			first = err
		}
		r.b.Release()
		start = end
	}
	return first
}

// heldCap is how many folders a Reader holds open at once. Past it, the
// reader lets them go between files, so that a run's descriptors stay
// few whatever the library's size: the kernel grows a process's
// descriptor table by waiting, and a caller's limit may be small.
const heldCap = 12

// chunk is the end of the paths from start whose folders the batch can
// hold together: at least one path.
func (r *Reader) chunk(paths []string, start int) int {
	end := start
	for end < len(paths) {
		r.b.Folder(paths[end])
		end++
		if r.b.Held() >= heldCap {
			break
		}
	}
	return end
}

func (r *Reader) readEach(paths []string, k Kind, use func(i int, data []byte)) error {
	errs := make([]error, len(paths))
	if r.b == nil {
		for i, p := range paths {
			var data []byte
			data, errs[i] = r.Read(p, k)
			use(i, data)
		}
		return firstError(errs)
	}
	folders, names := make([]*Target, len(paths)), make([]string, len(paths))
	done := make([]bool, len(paths))
	for i, p := range paths {
		folders[i], names[i], done[i] = r.b.Folder(p) // done: absent
		if done[i] {
			use(i, nil)
		}
	}
	Parallel(len(paths), func(i int) error {
		if folders[i] != nil {
			var data []byte
			data, done[i], errs[i] = folders[i].ReadIn(names[i], k)
			if errs[i] != nil {
				errs[i] = ReadError(paths[i], errs[i])
			}
			if done[i] {
				use(i, data)
			}
		}
		return nil
	})
	var rest []int
	for i := range paths {
		if !done[i] {
			rest = append(rest, i)
		}
	}
	ts := make([]*Target, len(rest))
	walked := make([]error, len(rest))
	for j, i := range rest {
		ts[j], walked[j] = r.b.Target(paths[i])
	}
	Parallel(len(rest), func(j int) error {
		i, err := rest[j], walked[j]
		var data []byte
		if err == nil {
			data, err = ts[j].Read(k)
			ts[j].Close()
		}
		switch { // as ReadWithin answers
		case IsAbsent(err):
			data = nil
		case err != nil:
			errs[i] = ReadError(paths[i], err)
		}
		use(i, data)
		return nil
	})
	return firstError(errs)
}

func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// List is ListWithin(root, dir), confined through the batch.
func (r *Reader) List(dir string) ([]fs.FileInfo, bool, error) { return r.ListMax(dir, 0) }

// ListMax is List reading at most max+1 entries (max 0: all); more than
// max entries means the folder holds more, and they are not sorted.
func (r *Reader) ListMax(dir string, max int) ([]fs.FileInfo, bool, error) {
	if r.b != nil {
		t, err := r.b.Target(r.s.Paths.Join(dir, ".probe"))
		if err != nil {
			return nil, false, err
		}
		t.Close()
		if r.b.Held() >= heldCap {
			r.b.Release()
		}
	}
	return r.s.listDir(r.root, dir, max)
}

// Close releases the directories the batch held.
func (r *Reader) Close() {
	if r.b != nil {
		r.b.Close()
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
