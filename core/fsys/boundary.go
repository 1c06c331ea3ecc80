package fsys

import (
	"fmt"

	"github.com/agentkit/charter/core/errcode"
)

// A walk with Options.Boundary confines a path a repository chose to the
// project it came from. The rule, for both walks:
//
//   - The boundary is identified once, following links (the user chose how
//     to spell the project's root), by identity: (dev, ino) on Unix,
//     os.SameFile elsewhere.
//   - A directory is inside when it is the boundary or was opened, without
//     following a link, from a directory inside: the walk's own chain of
//     held handles decides, never the text of a path.
//   - The directory that holds the target must be inside. A link followed
//     on the way may leave the project and come back (a chain of links
//     that ends inside is inside); one that ends outside is refused, named,
//     before anything is read or written.
//   - A walk that may create directories creates none outside the boundary.

// OutsideError is a path that a boundary walk found outside the project.
type OutsideError struct {
	Path string // the path as given
	Link string // the first link followed inside the project; "" when none
	Root string // the boundary, as given
}

func (e *OutsideError) Error() string {
	if e.Link != "" {
		return fmt.Sprintf("%s is a link that leads out of the project %s: charter reads and writes only inside the project; remove or replace the link", e.Link, e.Root)
	}
	return fmt.Sprintf("%s is outside the project %s: charter reads and writes only inside the project; use a path inside it", e.Path, e.Root)
}

// Code is the stable machine name of the error.
func (e *OutsideError) Code() string { return errcode.OutsideProject }

// escapes reports whether the directory a missing target would be created
// in lies outside the boundary. bound holds, for each directory the walk
// holds (from "/"), whether it is inside; comps are the components from
// the first missing one on, the last one the file's name. A missing
// directory is inside when its parent is, since it cannot be the boundary
// (which exists); ".." climbs the held directories once past them.
func escapes(bound []bool, comps []comp) bool {
	idx, extra := len(bound)-1, 0
	for _, c := range comps[:len(comps)-1] {
		switch {
		case c.name != "..":
			extra++
		case extra > 0:
			extra--
		case idx > 0:
			idx--
		}
	}
	return !bound[idx]
}
