//go:build !linux

package server

import "github.com/spf13/afero"

// dirWatch: without inotify the caches stat their files on every request.
type dirWatch struct{}

func newDirWatch(afero.Fs) *dirWatch      { return nil }
func (*dirWatch) generation() uint64      { return 0 }
func (*dirWatch) add(paths []string) bool { return false }
func (*dirWatch) close()                  {}
