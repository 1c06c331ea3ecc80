//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"errors"
	"io/fs"
	"path/filepath"

	"golang.org/x/sys/unix"
)

type frame struct {
	fd       int
	path     string // physical path text
	inside   bool   // this directory is the companion home or lies below it
	bound    bool   // this directory is the boundary or lies below it
	dev, ino uint64
	at       Place    // this directory as an entry of its parent (not for "/")
	held     *heldDir // fd is the Files' held folder's: never closed here
}

type walker struct {
	o        Options
	path     string
	home     [2]uint64
	hasHome  bool
	bound    [2]uint64
	hasBound bool        // o.Boundary is set (and exists: Walk checks)
	outLink  string      // the first link followed inside the boundary
	gits     [][2]uint64 // o.GitDirs that exist
	boundAt  string      // the boundary's physical path, once the walk is in it
	lastLink string      // the last link followed, as shown
	viaLink  bool        // the component being opened comes from a link's text
	stack    []frame
	links    int
	shared   string
	made     bool       // the last openDir created the directory
	fresh    bool       // the next openDir is in a directory this batch made: make first
	pins     []*heldDir // held folders this walk uses (heldSet.unpin)
	dir      bool       // the walk ends on a directory (WalkDir)
}

var errIsLink = errors.New("is a link")

// Walk walks path from "/" one component at a time with directory handles
// opened without following links. A link inside the companion tree stops
// the walk with *BlockedError unless o.Confirmed; any other link is read
// and its text walked in turn (at most MaxLinks). The final component is
// looked at without following it, and followed the same way when it is a
// link, so Target.Name is the file's real name in Target.Dir.
func Walk(path string, o Options) (t *Target, err error) {
	return walk(path, o, false)
}

// walk is Walk; with dir the last component is walked as a directory too
// (created when o.Create), and the Target holds that directory itself with
// Name "" (WalkDir).
func walk(path string, o Options, dir bool) (t *Target, err error) {
	if !filepath.IsAbs(path) {
		return nil, &NotAbsError{Path: path}
	}
	w := &walker{o: o, path: filepath.Clean(path), dir: dir}
	w.home, w.hasHome = o.held.identity(o.Home)
	if o.Boundary != "" {
		if w.bound, w.hasBound = o.held.identity(o.Boundary); !w.hasBound {
			return nil, &fs.PathError{Op: "find project", Path: o.Boundary, Err: fs.ErrNotExist}
		}
		w.gits = o.held.gitIdentities(o.GitDirs)
	}
	defer func() { o.held.unpin(w.pins) }()
	defer func() {
		if err != nil {
			w.closeAll()
		}
	}()
	queue, err := w.begin()
	if err != nil {
		return nil, err
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		last := len(queue) == 0 && !dir
		if c.name == ".." {
			w.pop()
			continue
		}
		top := w.top()
		if err := w.gitStep(top, c.name); err != nil {
			return nil, err
		}
		if last {
			var st unix.Stat_t
			err := unix.Fstatat(top.fd, c.name, &st, unix.AT_SYMLINK_NOFOLLOW)
			switch {
			case err == unix.ENOENT:
				return w.finish(c.name, false, &st)
			case err != nil:
				return nil, &fs.PathError{Op: "lstat", Path: join(top.path, c.name), Err: err}
			case isLink(&st):
				more, err := w.follow(c, top)
				if err != nil {
					return nil, err
				}
				queue = append(more, queue...)
				continue
			}
			return w.finish(c.name, true, &st)
		}
		w.viaLink = c.shown == ""
		fd, err := w.openDir(top, c.name)
		switch {
		case err == errIsLink:
			more, err := w.follow(c, top)
			if err != nil {
				return nil, err
			}
			queue = append(more, queue...)
			continue
		case err == unix.ENOENT:
			return w.missing(c, queue)
		case err != nil:
			return nil, err
		}
		if err := w.push(fd, join(top.path, c.name)); err != nil {
			return nil, err
		}
	}
	// The path ended on a directory: "/", or a link whose text ends in "..".
	top := w.top()
	if err := w.confined(top.bound); err != nil {
		return nil, err
	}
	if err := w.o.linked(w.path, w.outLink, w.boundAt, ""); err != nil {
		return nil, err
	}
	if dir {
		chain := w.chain()
		fd, err := w.own()
		if err != nil {
			return nil, err
		}
		t = &Target{Path: w.path, Dir: top.path, Shared: w.shared, IsDir: true, fd: fd, rfd: -1, dev: top.dev, ino: top.ino,
			inside: top.inside, bound: top.bound, chain: chain}
		w.closeAll()
		return t, nil
	}
	t = &Target{Path: w.path, Dir: filepath.Dir(top.path), Name: filepath.Base(top.path), Shared: w.shared, IsDir: true, fd: -1, rfd: -1}
	t.chain = w.chain()
	w.keep()
	w.closeAll()
	return t, nil
}

// identity is the companion home's (dev, ino), following links: the home
// may itself be reached through a link.
func identity(home string) ([2]uint64, bool) {
	if home == "" {
		return [2]uint64{}, false
	}
	var st unix.Stat_t
	if err := unix.Stat(home, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return [2]uint64{}, false
	}
	return [2]uint64{uint64(st.Dev), uint64(st.Ino)}, true
}

// chain is every directory on the way below "/", each as an entry of its
// parent, known by the handles the walk holds.
func (w *walker) chain() []Place {
	out := make([]Place, 0, len(w.stack))
	for _, f := range w.stack[1:] {
		out = append(out, f.at)
	}
	return out
}

func (w *walker) top() *frame { return &w.stack[len(w.stack)-1] }

func (w *walker) push(fd int, path string) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return w.adopt(frame{fd: fd, path: path, dev: uint64(st.Dev), ino: uint64(st.Ino)})
}

// adopt pushes f, a directory opened in the top one (or "/"), with this
// walk's verdicts on it by its identity.
func (w *walker) adopt(f frame) error {
	path := f.path
	if len(w.stack) > 0 {
		top := w.top()
		f.at = Place{Path: path, Name: filepath.Base(path), dev: top.dev, ino: top.ino}
	}
	if len(w.stack) > 0 && w.top().inside {
		f.inside = true
	} else if w.hasHome && f.dev == w.home[0] && f.ino == w.home[1] {
		f.inside = true
	}
	f.bound = len(w.stack) > 0 && w.top().bound || w.hasBound && f.dev == w.bound[0] && f.ino == w.bound[1]
	if f.bound && w.boundAt == "" {
		w.boundAt = path
	}
	for _, g := range w.gits {
		if f.dev == g[0] && f.ino == g[1] {
			if f.held == nil {
				unix.Close(f.fd)
			}
			return &GitDirError{Path: w.path, Link: w.outLink, Git: path}
		}
	}
	w.stack = append(w.stack, f)
	return nil
}

// pop goes to the directory the walk came from: the stack holds the
// physical chain from "/", since every push is a real child of the last.
func (w *walker) pop() {
	if len(w.stack) > 1 {
		if w.top().held == nil {
			unix.Close(w.top().fd)
		}
		w.stack = w.stack[:len(w.stack)-1]
	}
}

func (w *walker) toRoot() {
	for len(w.stack) > 1 {
		w.pop()
	}
}

func (w *walker) closeAll() {
	for _, f := range w.stack {
		if f.held == nil {
			unix.Close(f.fd)
		}
	}
	w.stack = nil
}

// openDir opens name in top as a directory without following a link,
// creating it first when the walk may. errIsLink means name is a link.
func (w *walker) openDir(top *frame, name string) (int, error) {
	p := join(top.path, name)
	w.made = false
	if w.fresh && w.o.Create {
		// Nothing of this name can be here yet: make it, then open it
		// as below (another maker's name is opened as any other).
		w.fresh = false
		err := unix.Mkdirat(top.fd, name, uint32(w.o.DirMode.Perm()))
		if err != nil && err != unix.EEXIST {
			return -1, &fs.PathError{Op: "create", Path: p, Err: err}
		}
		w.made = err == nil
		if fd, err := unix.Openat(top.fd, name, dirFlags|unix.O_NOFOLLOW, 0); err == nil {
			return fd, nil
		}
		w.made = false
	}
	for range 4 { // each retry means name changed under us
		fd, err := unix.Openat(top.fd, name, dirFlags|unix.O_NOFOLLOW, 0)
		if err == nil {
			return fd, nil
		}
		if err == unix.ENOENT {
			if !w.o.Create || w.hasBound && !top.bound || w.viaLink || w.o.StrictLinks && w.outLink != "" {
				// never a directory outside the project, nor one a
				// dangling link names: the link's owner meant another place
				return -1, unix.ENOENT
			}
			err := unix.Mkdirat(top.fd, name, uint32(w.o.DirMode.Perm()))
			if err != nil && err != unix.EEXIST {
				return -1, &fs.PathError{Op: "create", Path: p, Err: err}
			}
			w.made = err == nil
			continue
		}
		// ELOOP (EMLINK on FreeBSD) or ENOTDIR: find out what it is.
		var st unix.Stat_t
		if serr := unix.Fstatat(top.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); serr != nil {
			if serr == unix.ENOENT {
				continue
			}
			return -1, &fs.PathError{Op: "open", Path: p, Err: err}
		}
		switch {
		case isLink(&st):
			return -1, errIsLink
		case st.Mode&unix.S_IFMT != unix.S_IFDIR:
			return -1, &NotDirError{Path: p}
		case err != unix.ELOOP && err != unix.ENOTDIR && err != unix.EMLINK:
			return -1, &fs.PathError{Op: "open", Path: p, Err: err}
		}
	}
	return -1, &ChangedError{Path: p, What: "kept changing"}
}

// follow handles the link c in top: blocked inside the tree unless
// confirmed, otherwise its text is what the walk goes on with.
func (w *walker) follow(c comp, top *frame) ([]comp, error) {
	shown := c.shown
	if shown == "" {
		shown = join(top.path, c.name)
	}
	if top.inside {
		if !w.o.Confirmed {
			return nil, &BlockedError{Link: shown}
		}
		if w.shared == "" {
			w.shared = shown
		}
	}
	if top.bound && w.outLink == "" {
		w.outLink = shown
	}
	w.lastLink = shown
	w.links++
	if w.links > MaxLinks {
		return nil, &LinkLoopError{Path: w.path}
	}
	buf := make([]byte, 4096)
	n, err := unix.Readlinkat(top.fd, c.name, buf)
	if err == unix.EINVAL { // no longer a link: swapped since the look
		return nil, &ChangedError{Path: shown, What: "changed on the way"}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "readlink", Path: shown, Err: err}
	}
	if n >= len(buf) {
		return nil, &fs.PathError{Op: "readlink", Path: shown, Err: unix.ENAMETOOLONG}
	}
	text := string(buf[:n])
	if text == "" {
		return nil, &fs.PathError{Op: "readlink", Path: shown, Err: unix.ENOENT}
	}
	if text[0] == '/' {
		w.toRoot()
	}
	return linkComps(text), nil
}

// confined is the boundary's verdict on the directory the walk ends in.
func (w *walker) confined(inside bool) error {
	if !w.hasBound || inside {
		return nil
	}
	return &OutsideError{Path: w.path, Link: w.outLink, Root: w.o.Boundary}
}

func isLink(st *unix.Stat_t) bool { return st.Mode&unix.S_IFMT == unix.S_IFLNK }

func join(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}
