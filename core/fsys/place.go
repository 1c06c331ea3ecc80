package fsys

import (
	"io/fs"
	"os"
	"slices"
)

// Place is an entry of a directory, the directory known by its identity
// (device and inode; os.SameFile where there are none): the file or folder
// a companion share link leads to, whatever path spells it. A folder's
// Place holds everything below it.
type Place struct {
	Path string // the physical path the walk found, for messages
	Name string

	dev, ino uint64      // the directory's identity (walker_unix.go)
	info     fs.FileInfo // or its FileInfo (portable.go)

	// A folder's own identity, when Locate found the entry to be one: a
	// directory on a walk's way that is this folder by identity lies in
	// it, whatever entry led there (a bind mount of it, or any other path
	// to it with no link on the way).
	folder     bool
	fdev, fino uint64
	finfo      fs.FileInfo
}

// Valid reports whether p names an entry at all.
func (p Place) Valid() bool { return p.Name != "" && (p.info != nil || p.dev != 0 || p.ino != 0) }

// Same reports whether p and q are one entry of one directory.
func (p Place) Same(q Place) bool {
	if !p.Valid() || !q.Valid() || p.Name != q.Name {
		return false
	}
	if p.info != nil && q.info != nil {
		return os.SameFile(p.info, q.info)
	}
	return p.info == nil && q.info == nil && p.dev == q.dev && p.ino == q.ino
}

// Reaches returns the first of places that the walked target is or lies
// below, and whether there is one: an entry on its way is the place, or,
// for a folder, a directory on its way is that folder by identity. The
// directories compared are the ones the walk holds (or, on the portable
// walk, found): a path that is swapped after the walk does not change the
// answer for the directory written.
func (t *Target) Reaches(places []Place) (Place, bool) {
	for _, c := range t.places() {
		for _, p := range places {
			if c.Same(p) || p.holds(c) {
				return p, true
			}
		}
	}
	return Place{}, false
}

// holds reports whether the directory that holds the entry c is p's
// folder itself. Every directory a walk passes holds the next entry on
// its way, so each one is compared.
func (p Place) holds(c Place) bool {
	switch {
	case !p.folder || !c.Valid():
		return false
	case p.finfo != nil && c.info != nil:
		return os.SameFile(p.finfo, c.info)
	}
	return p.finfo == nil && c.info == nil && c.dev == p.fdev && c.ino == p.fino
}

// places is the chain, with a batch's file after its folder's.
func (t *Target) places() []Place {
	if !t.own.Valid() {
		return t.chain
	}
	return append(slices.Clip(t.chain), t.own)
}

// Locate walks path with every link followed (nothing is created) and
// returns the Place it ends at: where a link such as a companion share
// link really leads, with the folder's own identity when it is one. ok is
// false when it leads nowhere (dangling below a missing directory).
func Locate(path string) (Place, bool, error) { return locate(path, Options{Confirmed: true}) }

// Locate is Locate(path) from the folders s holds (Hold): an apply
// locates each instruction file it may edit.
func (s *Files) Locate(path string) (Place, bool, error) {
	return locate(path, Options{Confirmed: true, held: s.heldFor()})
}

func locate(path string, o Options) (Place, bool, error) {
	t, err := Walk(path, o)
	if err != nil {
		return Place{}, false, err
	}
	defer t.Close()
	p := t.Place()
	if p.Valid() && t.IsDir {
		p = t.asFolder(p)
	}
	return p, p.Valid(), nil
}
