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
// below, and whether there is one. The directories compared are the ones
// the walk holds (or, on the portable walk, found): a path that is swapped
// after the walk does not change the answer for the directory written.
func (t *Target) Reaches(places []Place) (Place, bool) {
	for _, c := range t.places() {
		for _, p := range places {
			if c.Same(p) {
				return p, true
			}
		}
	}
	return Place{}, false
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
// link really leads. ok is false when it leads nowhere (dangling below a
// missing directory).
func Locate(path string) (Place, bool, error) {
	t, err := Walk(path, Options{Confirmed: true})
	if err != nil {
		return Place{}, false, err
	}
	defer t.Close()
	p := t.Place()
	return p, p.Valid(), nil
}
