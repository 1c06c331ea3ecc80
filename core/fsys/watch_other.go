//go:build !linux

package fsys

import "github.com/spf13/afero"

// DirWatch: without inotify the caches stat their files on every request.
type DirWatch struct{}

func NewDirWatch(afero.Fs) *DirWatch      { return nil }
func (*DirWatch) Generation() uint64      { return 0 }
func (*DirWatch) Add(paths []string) bool { return false }
func (*DirWatch) Close()                  {}
