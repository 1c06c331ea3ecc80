//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsys

import "os"

// StampsVouch: Windows' file times and IDs are not checked against
// git's racy cases here, so no stamp vouches for a file: every file is
// read, every plan made.
const StampsVouch = false

// Lstamp never stamps here (ok false), so callers read the file.
func Lstamp(string) (s Stamp, missing, ok bool) { return Stamp{}, false, false }

// StampIn is never known here: every file is read.
func (d *Target) StampIn(name string) (Stamp, bool) { return Stamp{}, false }

// LstampIn is never known here: callers stamp by path.
func LstampIn(*os.File, string) (Stamp, bool) { return Stamp{}, false }
