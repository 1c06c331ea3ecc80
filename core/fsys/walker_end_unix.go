//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"io/fs"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// begin puts the walk at the deepest folder on its way the Files holds
// (heldSet), each held step checked as a step of the walk is (the git
// folder, the tree and the boundary by identity), else at "/", and
// returns the components still to walk.
func (w *walker) begin() ([]comp, error) {
	chain, queue := w.o.held.start(userComps(w.path), !w.dir)
	w.pins = chain
	if len(chain) == 0 {
		root, err := unix.Open("/", dirFlags, 0)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: "/", Err: err}
		}
		return queue, w.push(root, "/")
	}
	for i, d := range chain {
		if i > 0 {
			if err := w.gitStep(w.top(), d.name); err != nil {
				return nil, err
			}
		}
		if err := w.adopt(frame{fd: d.fd, path: d.path, dev: d.dev, ino: d.ino, held: d}); err != nil {
			return nil, err
		}
	}
	return queue, nil
}

// keep gives the folders this walk opened to the Files' held set, for the
// walks after it.
func (w *walker) keep() {
	if w.o.held == nil {
		return
	}
	w.pins = append(w.pins, w.o.held.keep(w.stack)...)
}

// own is the descriptor of the walk's last folder for its Target: the
// frame's own, or a copy of it when the folder is held.
func (w *walker) own() (int, error) {
	w.keep()
	top := w.top()
	if top.held == nil {
		w.stack = w.stack[:len(w.stack)-1] // the target owns top.fd now
		return top.fd, nil
	}
	fd, err := unix.FcntlInt(uintptr(top.fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: top.path, Err: err}
	}
	return fd, nil
}

func (w *walker) finish(name string, exists bool, st *unix.Stat_t) (*Target, error) {
	top := w.top()
	if err := w.confined(top.bound); err != nil {
		return nil, err
	}
	if err := w.o.linked(w.path, w.outLink, w.boundAt, join(top.path, name)); err != nil {
		return nil, err
	}
	chain := append(w.chain(), Place{Path: join(top.path, name), Name: name, dev: top.dev, ino: top.ino})
	fd, err := w.own()
	if err != nil {
		return nil, err
	}
	t := &Target{Path: w.path, Dir: top.path, Name: name, Shared: w.shared, fd: fd, rfd: -1, dev: top.dev, ino: top.ino, chain: chain}
	t.IsDir = exists && st.Mode&unix.S_IFMT == unix.S_IFDIR
	w.closeAll()
	return t, nil
}

// missing describes a target below a directory that does not exist.
func (w *walker) missing(c comp, rest []comp) (*Target, error) {
	if w.hasBound {
		bound := make([]bool, len(w.stack))
		for i, f := range w.stack {
			bound[i] = f.bound
		}
		if err := w.confined(!escapes(bound, append([]comp{c}, rest...))); err != nil {
			return nil, err
		}
	}
	if w.o.Create && c.shown == "" {
		return nil, &DanglingError{Path: w.path, Link: w.lastLink, Missing: join(w.top().path, c.name)}
	}
	names := []string{w.top().path, c.name}
	for _, r := range rest {
		names = append(names, r.name)
	}
	full := filepath.Join(names...)
	if err := w.o.linked(w.path, w.outLink, w.boundAt, full); err != nil {
		return nil, err
	}
	t := &Target{Path: w.path, Dir: filepath.Dir(full), Name: filepath.Base(full), Shared: w.shared, Missing: true, fd: -1, rfd: -1}
	if c.shown == "" {
		t.dangling = w.lastLink
	}
	top := w.top()
	t.chain = append(w.chain(), Place{Path: join(top.path, c.name), Name: c.name, dev: top.dev, ino: top.ino})
	w.keep()
	w.closeAll()
	return t, nil
}
