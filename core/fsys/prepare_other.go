//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsys

import (
	"io"

	"github.com/spf13/afero"
)

// Prepared is never made here: the portable walk holds no directory to
// stage in, so every update takes UpdateFileStream.
type Prepared struct{}

func (s *Files) Prepare(string, WriteOptions, func(afero.File) (func(io.Writer) error, error)) *Prepared {
	return nil
}
func (s *Files) CommitPrepared(*Prepared) bool { return false }
func (p *Prepared) Abort()                     {}
func SyncPrepared([]*Prepared)                 {}

// SyncStagedWith is SyncStaged: no file is prepared here.
func SyncStagedWith(ss []*Staged, _ []*Prepared) error { return SyncStaged(ss) }
