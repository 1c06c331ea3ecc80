//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsys

// Batch is, on this system, one Walk per target.
type Batch struct{ o Options }

// NewBatch starts a batch of walks with o.
func NewBatch(o Options) *Batch { return &Batch{o: o} }

// Target is Walk(path).
func (b *Batch) Target(path string) (*Target, error) { return Walk(path, b.o) }

// Close releases nothing here.
func (b *Batch) Close() {}
