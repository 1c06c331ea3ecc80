//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"sync"

	"golang.org/x/sys/unix"
)

// heldSet is the folders a Files' single walks start from, so that a walk
// opens only what lies below the deepest folder on its way that an earlier
// walk opened, instead of every folder from "/" (a cold apply walks a
// hundred targets in one project). It holds a tree from "/": a folder is
// held only while its parent is, at most heldMax of them, the least
// recently used leaf let go first; and only while a run holds the set
// (Files.Hold), so that nothing stays open between runs (a held folder on
// a file system would keep it from being unmounted).
//
// A held folder is only a start when it is still what its parent holds
// under its name: each step of the chain is looked at again
// (fstatat without following, same device and inode), so a folder renamed
// away or swapped for a link since is dropped and walked as a fresh walk
// would walk it. The verdicts (companion tree, boundary, git folder) are
// each walk's own, taken from the identities of the chain.
type heldSet struct {
	mu     sync.Mutex
	root   *heldDir
	n      int
	clock  uint64
	active int // runs holding the set (hold, done)
	// What a run learns once (as a Batch does): the identities of the
	// companion home, the boundary and the git folders, and the git
	// folders a project's ".git" file names.
	ids  map[string]ident
	gits map[string][]string
	// roots are the project roots reads below them start from
	// (held_root_unix.go).
	roots map[string]*heldRoot
}

type ident struct {
	id [2]uint64
	ok bool
}

// heldMax bounds the descriptors a Files keeps between walks: a project's
// depth from "/" and a few folders in it.
const heldMax = 10

type heldDir struct {
	name, path string
	fd         int // opened without following a link in parent's fd
	dev, ino   uint64
	parent     *heldDir
	kids       map[string]*heldDir
	pins       int    // walks using fd now
	used       uint64 // last use, for choosing whom to let go
	gone       bool   // let go: closed when the last pin goes
}

// start pins the held chain on the way of comps (from "/"), each step
// checked again, and returns it with the components still to walk. Only
// directories are taken: with file set, the last component is the walk's
// to look at. nil when nothing is held.
func (h *heldSet) start(comps []comp, file bool) ([]*heldDir, []comp) {
	if h == nil {
		return nil, comps
	}
	max := len(comps)
	if file && max > 0 {
		max--
	}
	h.mu.Lock()
	if h.root == nil || h.active == 0 {
		h.mu.Unlock()
		return nil, comps
	}
	h.clock++
	chain := []*heldDir{h.root}
	for _, c := range comps[:max] {
		k := chain[len(chain)-1].kids[c.name]
		if k == nil {
			break
		}
		chain = append(chain, k)
	}
	for _, d := range chain {
		d.pins++
		d.used = h.clock
	}
	h.mu.Unlock()
	for i := 1; i < len(chain); i++ {
		d := chain[i]
		var st unix.Stat_t
		err := unix.Fstatat(chain[i-1].fd, d.name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || uint64(st.Dev) != d.dev || uint64(st.Ino) != d.ino {
			h.drop(d)
			h.unpin(chain[i:])
			chain = chain[:i]
			break
		}
	}
	return chain, comps[len(chain)-1:]
}

// keep adds the walk's frames it opened itself below its held ones, so
// that the next walk starts there; a frame kept is pinned for the walk
// (returned). It stops at the first it cannot keep (all held in use).
func (h *heldSet) keep(stack []frame) (kept []*heldDir) {
	if h == nil || len(stack) == 0 {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.active == 0 {
		return nil
	}
	h.clock++
	for i := range stack {
		f := &stack[i]
		if f.held != nil {
			continue
		}
		var parent *heldDir
		switch {
		case i == 0 && f.path == "/" && h.root == nil:
		case i > 0 && stack[i-1].held != nil && !stack[i-1].held.gone:
			parent = stack[i-1].held
			if parent.kids[f.at.Name] != nil {
				return kept // another walk kept it meanwhile
			}
		default:
			return kept
		}
		if h.n >= heldMax && !h.evict() {
			return kept
		}
		d := &heldDir{name: f.at.Name, path: f.path, fd: f.fd, dev: f.dev, ino: f.ino, parent: parent, pins: 1, used: h.clock}
		if parent == nil {
			h.root = d
		} else {
			if parent.kids == nil {
				parent.kids = map[string]*heldDir{}
			}
			parent.kids[d.name] = d
		}
		h.n++
		f.held = d
		kept = append(kept, d)
	}
	return kept
}

// evict lets go of the least recently used leaf no walk is using.
func (h *heldSet) evict() bool {
	var best *heldDir
	var visit func(d *heldDir)
	visit = func(d *heldDir) {
		for _, k := range d.kids {
			visit(k)
		}
		if len(d.kids) == 0 && d.pins == 0 && (best == nil || d.used < best.used) {
			best = d
		}
	}
	if h.root != nil {
		visit(h.root)
	}
	if best == nil {
		return false
	}
	h.detach(best)
	return true
}

// drop lets go of d and everything held below it: it is no longer what
// its parent holds under its name.
func (h *heldSet) drop(d *heldDir) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !d.gone {
		h.detach(d)
	}
}

// detach removes d's subtree from the set, closing what no walk uses.
func (h *heldSet) detach(d *heldDir) {
	for _, k := range d.kids {
		h.detach(k)
	}
	d.kids = nil
	if d.parent != nil {
		delete(d.parent.kids, d.name)
	} else if h.root == d {
		h.root = nil
	}
	d.gone = true
	h.n--
	if d.pins == 0 {
		unix.Close(d.fd)
	}
}

// unpin ends a walk's use of ds.
func (h *heldSet) unpin(ds []*heldDir) {
	if h == nil || len(ds) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, d := range ds {
		d.pins--
		if d.gone && d.pins == 0 {
			unix.Close(d.fd)
		}
	}
}

// hold starts a run: walks keep folders until the last run holding the
// set is done.
func (h *heldSet) hold() {
	h.mu.Lock()
	h.active++
	h.mu.Unlock()
}

// done ends a run; the last one lets every held folder go (those in use
// close when their walk ends).
func (h *heldSet) done() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.active--; h.active == 0 {
		if h.root != nil {
			h.detach(h.root)
		}
		h.releaseRoots()
		h.ids, h.gits = nil, nil
	}
}

// identity is identity(path), taken once in a run.
func (h *heldSet) identity(path string) ([2]uint64, bool) {
	if h == nil || path == "" {
		return identity(path)
	}
	h.mu.Lock()
	v, found := h.ids[path]
	active := h.active > 0
	h.mu.Unlock()
	if found {
		return v.id, v.ok
	}
	id, ok := identity(path)
	if active {
		h.mu.Lock()
		if h.active > 0 {
			if h.ids == nil {
				h.ids = map[string]ident{}
			}
			h.ids[path] = ident{id, ok}
		}
		h.mu.Unlock()
	}
	return id, ok
}

// gitIdentities is gitIdentities(dirs), each taken once in a run.
func (h *heldSet) gitIdentities(dirs []string) [][2]uint64 {
	var out [][2]uint64
	for _, d := range dirs {
		if id, ok := h.identity(d); ok {
			out = append(out, id)
		}
	}
	return out
}

// gitDirs is find(root), asked once in a run.
func (h *heldSet) gitDirs(root string, find func(string) []string) []string {
	h.mu.Lock()
	v, found := h.gits[root]
	active := h.active > 0
	h.mu.Unlock()
	if found {
		return v
	}
	v = find(root)
	if active {
		h.mu.Lock()
		if h.active > 0 {
			if h.gits == nil {
				h.gits = map[string][]string{}
			}
			h.gits[root] = v
		}
		h.mu.Unlock()
	}
	return v
}
