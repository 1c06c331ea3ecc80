//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsys

import "io/fs"

// Batch is, on this system, one Walk per target.
type Batch struct {
	o     Options
	limit int // unused: each target holds its own folder until closed
}

// maxHeldWriting: no folder is held by the batch here.
const maxHeldWriting = 0

// release has nothing to let go here.
func (t *Target) release() {}

// NewBatch starts a batch of walks with o.
func NewBatch(o Options) *Batch { return &Batch{o: o} }

// Target is Walk(path).
func (b *Batch) Target(path string) (*Target, error) { return Walk(path, b.o) }

// Close releases nothing here.
func (b *Batch) Close() {}

// Folder is nil here: every read goes through Target.
func (b *Batch) Folder(path string) (*Target, string, bool) { return nil, "", false }

// ReadIn is never done here.
func (d *Target) ReadIn(name string, k Kind) ([]byte, bool, error) { return nil, false, nil }

// Publish has nothing to publish here: no folder is staged.
func (b *Batch) Publish() error { return nil }

// Held is how many directories the batch holds open: none here.
func (b *Batch) Held() int { return 0 }

// Release lets every held directory go: none here.
func (b *Batch) Release(string) {}

// list is never done here: the Reader lists by path.
func (b *Batch) list(dir string, max int) ([]fs.FileInfo, bool, error) { return nil, false, nil }
