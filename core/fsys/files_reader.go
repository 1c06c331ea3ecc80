package fsys

import (
	"io/fs"
)

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
		r.b.Release(path)
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
		r.b.Release(next(paths, end))
		start = end
	}
	return first
}

// heldCap is how many folders a Reader opens before it lets them go
// between files, so that a run's descriptors stay few whatever the
// library's size: the kernel grows a process's descriptor table by
// waiting, and a caller's limit may be small. The folders on the way to
// the next file stay open (Batch.Release), so a long list is not walked
// again from "/" every few files.
const heldCap = 12

// next is paths[i], "" past the end.
func next(paths []string, i int) string {
	if i < len(paths) {
		return paths[i]
	}
	return ""
}

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
		// The folder the walk checked, listed by its handle: no path
		// resolved again, and the folder listed is the one checked. A
		// folder held answers without a name in it looked up; anything
		// else is walked to as a name in it would be (its refusal).
		probe := r.s.Paths.Join(dir, ".probe")
		if d, _, _ := r.b.Folder(probe); d == nil {
			t, err := r.b.Target(probe)
			if err != nil {
				return nil, false, err
			}
			t.Close()
			probe = t.Path
		}
		entries, ok, err := r.b.list(r.s.Paths.Dir(probe), max)
		if r.b.Held() >= heldCap {
			r.b.Release(probe)
		}
		if ok {
			return entries, false, err
		}
	}
	return r.s.listDir(r.root, dir, max)
}

// Release lets go the folders the reader holds but those on the way to
// next (Batch.Release): a reader that has done with a folder bounds what
// it holds to next's depth.
func (r *Reader) Release(next string) {
	if r.b != nil {
		r.b.Release(next)
	}
}

// Close releases the directories the batch held.
func (r *Reader) Close() {
	if r.b != nil {
		r.b.Close()
	}
}
