//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// Batch walks each directory of a batch of targets once and holds it open:
// the first target in a directory walks to the directory itself, with every
// check of Walk (links in the tree, the boundary, creation), and later
// targets in it are looked up in the held handle, so the directory checked
// is still the one written. A target whose own name is a link is walked
// whole by Walk, which follows or blocks it. Close the Batch after its
// targets: they borrow its handles.
type Batch struct {
	o       Options
	dirs    map[string]*Target
	missing map[string]*Target // a walk without Create: a directory not there
	staged  []*Target          // made under a temporary name, not yet published
	kept    int                // directories Release kept open
	absent  int                // of dirs, the Missing ones

	ids             bool // home, bnd and gits are known
	home, bnd       [2]uint64
	hasHome, hasBnd bool
	gits            [][2]uint64

	capped
}

// NewBatch starts a batch of walks with o.
func NewBatch(o Options) *Batch {
	return &Batch{o: o, dirs: map[string]*Target{}, missing: map[string]*Target{}}
}

// Target is Walk(path) through the batch's held directories. In a batch
// with a bound, the target's folder stays open until its release.
func (b *Batch) Target(path string) (*Target, error) {
	if b.limit == 0 {
		return b.target(path)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.target(path)
	if err == nil && t.held != nil {
		t.held.borrowers = append(t.held.borrowers, t)
		t.held.pins++
		b.touch(t.held)
	}
	b.trim()
	return t, err
}

func (b *Batch) target(path string) (*Target, error) {
	if !filepath.IsAbs(path) {
		return nil, &NotAbsError{Path: path}
	}
	path = filepath.Clean(path)
	dir, name := split(path)
	if dir == path || name == ".." {
		return Walk(path, b.o)
	}
	if m := b.missing[dir]; m != nil {
		// Walk would find what it found for m: the same directories, the
		// same verdict on the boundary, and the name is never reached.
		return &Target{Path: path, Dir: m.Dir, Name: name, Shared: m.Shared, Missing: true, fd: -1, rfd: -1, chain: m.chain}, nil
	}
	d, err := b.dir(dir)
	var changed *ChangedError
	if errors.As(err, &changed) {
		return nil, err // a folder let go is not the one staged into
	} else if err != nil {
		return Walk(path, b.o) // the refusal as Walk words it, for this path
	}
	if d.Missing { // a walk that may not create: nothing to hold
		// Walk would stop where d's walk stopped, on the same verdicts.
		t := &Target{Path: path, Dir: join(d.Dir, d.Name), Name: name, Shared: d.Shared, Missing: true, fd: -1, rfd: -1, chain: d.chain}
		b.missing[dir] = t
		return t, nil
	}
	if b.o.Boundary != "" && isGitName(name) && d.bound && !d.made {
		return Walk(path, b.o) // the boundary's .git, perhaps: Walk decides
	}
	var st unix.Stat_t
	if d.made {
		// A folder this batch made holds only what the batch put there:
		// the name is free (Commit refuses whatever appears there).
		err = unix.ENOENT
	} else {
		err = unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	switch {
	case err == nil && isLink(&st):
		return Walk(path, b.o)
	case err != nil && err != unix.ENOENT:
		return nil, &fs.PathError{Op: "lstat", Path: path, Err: err}
	}
	// The directories on the way, as Walk would hold them, and the file as
	// an entry of its directory: shared sources are matched on them.
	own := Place{Path: join(d.Dir, name), Name: name, dev: d.dev, ino: d.ino}
	return &Target{Path: path, Dir: d.Dir, Name: name, Shared: d.Shared, fd: d.fd, rfd: -1, dev: d.dev, ino: d.ino,
		IsDir: err == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR, held: d, chain: d.chain, own: own,
		looked: err == unix.ENOENT || st.Mode&unix.S_IFMT == unix.S_IFREG, absent: err == unix.ENOENT,
		hidden: d.hidden || d.staged != ""}, nil
}

// dir is the held directory at the clean path dir: opened in its held
// parent when no link is on that step, else walked whole from "/".
func (b *Batch) dir(dir string) (*Target, error) {
	if d, ok := b.dirs[dir]; ok {
		if d.fd < 0 && d.up != nil { // let go (a bound): opened again
			if err := b.reopen(d); err != nil {
				return nil, err
			}
		}
		return d, nil
	}
	parent, _ := split(dir)
	var d, up *Target
	if parent != dir {
		if p, err := b.dir(parent); err == nil && p.Missing {
			// Below a missing directory: missing too, on the parent's
			// verdicts (a clean path has no ".." to climb back out).
			d = &Target{Path: dir, Dir: join(p.Dir, p.Name), Name: filepath.Base(dir), Shared: p.Shared, Missing: true, fd: -1, rfd: -1, chain: p.chain}
		} else if err == nil {
			d, up = b.below(p, dir), p
			b.touch(p) // the path's folders stay open, its leaves go first
		}
	}
	if d == nil {
		var err error
		if d, err = walk(dir, b.o, true); err != nil {
			return nil, err
		}
		up = nil
	}
	b.track(d, up)
	b.dirs[dir] = d
	if d.Missing {
		b.absent++
	}
	return d, nil
}

// below opens dir's last component in its held parent p, with the checks
// of a walk's step (push: the tree and the boundary by identity; openDir:
// never through a link, creating it when the walk may). Anything but a
// plain directory there — a link, a name missing, a parent outside the
// boundary — is nil: the caller walks dir whole, which decides it.
func (b *Batch) below(p *Target, dir string) *Target {
	if b.o.Boundary != "" && !p.bound {
		return nil
	}
	w := &walker{o: b.o, path: dir, shared: p.Shared}
	if !b.ids {
		b.home, b.hasHome = identity(b.o.Home)
		b.bnd, b.hasBnd = identity(b.o.Boundary)
		b.gits = gitIdentities(b.o.GitDirs)
		b.ids = true
	}
	w.home, w.hasHome, w.bound, w.hasBound, w.gits = b.home, b.hasHome, b.bnd, b.hasBnd, b.gits
	if b.o.Boundary != "" && !w.hasBound {
		return nil
	}
	top := &frame{fd: p.fd, path: p.Dir, inside: p.inside, bound: p.bound, dev: p.dev, ino: p.ino}
	w.stack = []frame{*top}
	name := filepath.Base(dir)
	if w.gitStep(top, name) != nil {
		return nil // Walk words the refusal
	}
	if b.o.StageNew && !p.hidden && p.staged == "" { // below a staged folder: hidden already, made in place
		if t := b.stageBelow(w, p, dir); t != nil {
			return t
		}
	}
	w.fresh = p.made && !(w.hasBound && !p.bound)
	fd, err := w.openDir(top, name)
	if err != nil {
		return nil
	}
	made := w.made
	if err := w.push(fd, join(p.Dir, name)); err != nil {
		return nil
	}
	c := w.top()
	t := &Target{Path: dir, Dir: c.path, Shared: w.shared, IsDir: true, fd: c.fd, rfd: -1, dev: c.dev, ino: c.ino,
		inside: c.inside, bound: c.bound, chain: append(slices.Clip(p.chain), c.at), made: made, hidden: p.hidden || p.staged != ""}
	if made {
		t.names = []string{} // no killed writer's temporary file in a new folder
	}
	return t
}

// Close releases the held directories, and removes the folders made
// under a temporary name that were never published.
func (b *Batch) Close() {
	b.discard()
	for k, d := range b.dirs {
		d.Close()
		delete(b.dirs, k)
	}
	b.kept, b.absent = 0, 0
	b.lru = nil
}

// listing is a held directory's names, read once: the caller holds the
// batch's lock, so a temporary file a killed writer left is in it, and one
// this batch makes later is not (RemoveStale removes only the former).
func (t *Target) listing() ([]string, error) {
	if t.names == nil {
		names, err := t.list()
		if err != nil {
			return nil, err
		}
		if names == nil {
			names = []string{} // listed, and empty
		}
		t.names = names
	}
	return t.names, nil
}

// Folder returns the held directory of path's name and the name, for
// ReadIn; nil when only Target can answer for path (a path at "/", a
// directory refused). absent reports a folder that does not exist, on a
// path with no link on the way: Target would find nothing there either.
// It creates nothing a batch without Create would not.
func (b *Batch) Folder(path string) (d *Target, name string, absent bool) {
	if !filepath.IsAbs(path) {
		return nil, "", false
	}
	path = filepath.Clean(path)
	dir, name := split(path)
	if dir == path || name == ".." {
		return nil, "", false
	}
	if m := b.missing[dir]; m != nil {
		return nil, "", m.Dir == dir
	}
	d, err := b.dir(dir)
	switch {
	case err != nil:
		return nil, "", false
	case d.Missing:
		return nil, "", join(d.Dir, d.Name) == dir
	}
	return d, name, false
}

// ReadIn is Target(d/name).Read(k) with the batch's lookup left out, for
// a plain regular file: the name is opened in the held directory without
// following a link. done is false when only Target can answer (a link, a
// name missing, anything but a regular file within the cap). Safe from
// several goroutines at once: it only reads d.
func (d *Target) ReadIn(name string, k Kind) (data []byte, done bool, err error) {
	fd, err := unix.Openat(d.fd, name, readFlags|unix.O_NOFOLLOW, 0)
	if err != nil {
		return nil, false, nil
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size > k.Max() {
		return nil, false, nil
	}
	data, err = ReadAll(&rawFile{fd: fd, size: st.Size}, join(d.Dir, name), k)
	return data, true, err
}

// Held is how many directories the batch opened since it last let
// directories go (Release): the ones it keeps are not counted, nor the
// folders it found missing, which hold no descriptor.
func (b *Batch) Held() int { return len(b.dirs) - b.absent - b.kept }

// Release lets the held directories go, for a batch that made and staged
// nothing (a reader's), except the folders on the way to next (a path of
// the next file, "" for none): the next files' walk starts from the
// deepest of them rather than from "/", and a target below a folder let go
// walks again from the nearest held one, with every check of a walk. What
// stays open is bounded by next's depth, whatever the batch's size. The
// folders found missing hold nothing and stay missing until Release(""):
// a cold run's reads do not look for its missing folders again.
func (b *Batch) Release(next string) {
	if len(b.staged) > 0 {
		return
	}
	for _, d := range b.dirs {
		if d.made || d.staged != "" {
			return // the batch wrote: its folders stay until Close
		}
	}
	keep := ""
	if next != "" {
		keep = filepath.Dir(filepath.Clean(next))
	}
	b.kept = 0
	for k, d := range b.dirs {
		switch {
		case keep != "" && d.Missing:
			continue // no descriptor: a cold run's missing folders, not walked again
		case keep != "" && onTheWay(k, keep):
			b.kept++
			continue
		}
		d.Close()
		delete(b.dirs, k)
	}
	if keep == "" {
		b.absent = 0
		b.missing = map[string]*Target{}
	}
}

// split is filepath.Dir and filepath.Base of a clean absolute path,
// without cleaning it again: a batch splits every path it is asked.
func split(path string) (dir, name string) {
	i := strings.LastIndexByte(path, '/')
	switch {
	case path == "/":
		return "/", "/"
	case i == 0:
		return "/", path[1:]
	}
	return path[:i], path[i+1:]
}

// onTheWay: the clean path dir is p or a folder above it.
func onTheWay(dir, p string) bool {
	if !strings.HasPrefix(p, dir) {
		return false
	}
	return len(p) == len(dir) || strings.HasSuffix(dir, string(filepath.Separator)) || p[len(dir)] == filepath.Separator
}

// list is the entries of the folder dir the batch holds (readDirMax of
// at most max+1, all for max 0), read through its handle; ok is false when
// the batch holds no such folder (missing, or not walked), and the caller
// lists it by its path.
func (b *Batch) list(dir string, max int) (entries []fs.FileInfo, ok bool, err error) {
	d := b.dirs[dir]
	if d == nil || d.Missing || d.staged != "" {
		return nil, false, nil
	}
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false, nil
	}
	defer unix.Close(fd)
	n := max + 1
	if max <= 0 {
		n = 0
	}
	if entries, err = listHeld(fd, n); err != nil {
		return nil, true, ReadError(dir, err)
	}
	return entries, true, nil
}
