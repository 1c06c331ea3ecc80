//go:build unix

package server

import (
	"io/fs"
	"syscall"
)

// inode is the file's device and inode number: a file replaced by rename
// keeps neither, even when size and mtime match.
func inode(fi fs.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino)
	}
	return 0, 0
}
