//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import "golang.org/x/sys/unix"

// heldRoot is a project root's handle, kept while a run holds the set:
// a run reads several files below one root (its settings layers, the
// sources lock), and opening the root by its path is as dear as the read.
type heldRoot struct {
	fd   int
	pins int  // reads using fd now
	gone bool // the run ended: closed when the last pin goes
}

// rootFD is a handle on root from open (which follows links: the root's
// spelling is the user's), the run's own while a run holds the set, and
// what ends this use of it.
func (h *heldSet) rootFD(root string, open func(string) (int, error)) (int, func(), error) {
	if h == nil {
		return openOwn(root, open)
	}
	h.mu.Lock()
	if r := h.roots[root]; r != nil {
		r.pins++
		h.mu.Unlock()
		return r.fd, func() { h.unpinRoot(r) }, nil
	}
	active := h.active > 0
	h.mu.Unlock()
	if !active {
		return openOwn(root, open)
	}
	fd, err := open(root)
	if err != nil {
		return -1, nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.active == 0 || h.roots[root] != nil { // the run ended, or another read kept one meanwhile
		return fd, func() { unix.Close(fd) }, nil
	}
	r := &heldRoot{fd: fd, pins: 1}
	if h.roots == nil {
		h.roots = map[string]*heldRoot{}
	}
	h.roots[root] = r
	return fd, func() { h.unpinRoot(r) }, nil
}

// openOwn is a handle no run keeps: closed when its use ends.
func openOwn(root string, open func(string) (int, error)) (int, func(), error) {
	fd, err := open(root)
	if err != nil {
		return -1, nil, err
	}
	return fd, func() { unix.Close(fd) }, nil
}

func (h *heldSet) unpinRoot(r *heldRoot) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.pins--; r.gone && r.pins == 0 {
		unix.Close(r.fd)
	}
}

// releaseRoots lets the roots go at the end of the last run (h.mu held);
// one in use closes when its read ends.
func (h *heldSet) releaseRoots() {
	for _, r := range h.roots {
		r.gone = true
		if r.pins == 0 {
			unix.Close(r.fd)
		}
	}
	h.roots = nil
}
