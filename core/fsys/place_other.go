//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsys

import "os"

// asFolder is p with the identity of the folder it names, as os.SameFile
// compares it (volume serial and file index on Windows).
func (t *portableTarget) asFolder(p Place) Place {
	fi, err := os.Lstat(t.full())
	if err != nil || !fi.IsDir() {
		return p
	}
	p.folder, p.finfo = true, fi
	return p
}
