//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"fmt"
	"slices"
	"sync"

	"golang.org/x/sys/unix"
)

// maxHeldWriting is how many folders a writing batch (Stager) keeps open
// at once. A cold run makes one folder per skill; holding each from its
// staging to its rename needs as many descriptors, which a small limit
// refuses, and past 64 the kernel grows the descriptor table (each growth
// waits for an RCU grace period). A run holds some 20 descriptors besides
// (its record, locks, the runtime's); 6 hold a path's folders below the
// project and the few being staged, in path order; the rest are opened
// again when needed.
const maxHeldWriting = 6

// capped is a batch's bound on open folders: a folder let go keeps its
// identity (dev, ino) and is opened again from its held parent with a
// walk's step (no link followed); a different folder there is refused.
type capped struct {
	mu    sync.Mutex
	limit int       // 0: no bound (a reader's batch, which Releases)
	lru   []*Target // open folders that may be let go, least recent first

	reopens int // folders opened again after being let go
}

// pin opens d again if it was let go, and keeps it open until unpin.
func (b *Batch) pin(d *Target) error {
	if b == nil || b.limit == 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pinLocked(d)
}

func (b *Batch) pinLocked(d *Target) error {
	if d.fd < 0 && d.up != nil {
		if err := b.reopen(d); err != nil {
			return err
		}
	}
	d.pins++
	b.touch(d)
	return nil
}

// unpin lets d be let go again, and lets go what exceeds the bound.
func (b *Batch) unpin(d *Target) {
	if b == nil || b.limit == 0 {
		return
	}
	b.mu.Lock()
	d.pins--
	b.trim()
	b.mu.Unlock()
}

// hold pins the folder a batch's target borrows; release unpins it. A
// target of its own (walked whole) holds its folder itself.
func (t *Target) hold() error {
	if t.held == nil {
		return nil
	}
	return t.held.batch.pin(t.held)
}

func (t *Target) release() {
	if t.held != nil {
		t.held.batch.unpin(t.held)
	}
}

// reopen opens the let-go folder d in its parent (opened again first if
// need be), as its walk did: no link followed, and only the very folder
// staged into, by identity. Its staged files are in that folder alone.
func (b *Batch) reopen(d *Target) error {
	p := d.up
	if err := b.pinLocked(p); err != nil {
		return err
	}
	defer func() { p.pins-- }()
	name := base(d.Dir)
	if d.staged != "" {
		name = d.staged
	}
	fd, err := unix.Openat(p.fd, name, dirFlags|unix.O_NOFOLLOW, 0)
	if err != nil {
		return &ChangedError{Path: d.Dir, What: fmt.Sprintf("was replaced (%v)", err)}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || uint64(st.Dev) != d.dev || uint64(st.Ino) != d.ino {
		unix.Close(fd)
		return &ChangedError{Path: d.Dir, What: "was replaced by another folder"}
	}
	b.reopens++
	d.fd = fd
	for _, t := range d.borrowers {
		if t.held == d {
			t.fd = fd
		}
	}
	b.lru = append(b.lru, d)
	return nil
}

// track makes d, just opened below its held parent, one of the folders
// the bound counts; the ones walked whole from "/" stay open.
func (b *Batch) track(d, parent *Target) {
	d.batch = b
	if b.limit == 0 || d.Missing || d.fd < 0 {
		return
	}
	if parent != nil {
		d.up = parent
		b.lru = append(b.lru, d)
	}
}

// touch makes d the most recently used folder.
func (b *Batch) touch(d *Target) {
	if i := slices.Index(b.lru, d); i >= 0 && i != len(b.lru)-1 {
		b.lru = append(slices.Delete(b.lru, i, i+1), d)
	}
}

// trim lets go the least recently used folders nobody pins, down to the
// bound; what every target borrowing them holds is a closed handle (-1)
// until pinned again.
func (b *Batch) trim() {
	for i := 0; len(b.lru) > b.limit && i < len(b.lru); {
		d := b.lru[i]
		if d.pins > 0 {
			i++
			continue
		}
		if d.rfd >= 0 {
			unix.Close(d.rfd)
			d.rfd = -1
		}
		unix.Close(d.fd)
		d.fd = -1
		for _, t := range d.borrowers {
			if t.held == d {
				t.fd = -1
			}
		}
		b.lru = slices.Delete(b.lru, i, i+1)
	}
}
