//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package content

// stampOf is never trusted here: the library is read on every call.
func stampOf(string) (st fileStamp, missing, ok bool) { return fileStamp{}, false, false }

func isDir(fileStamp) bool  { return false }
func isLink(fileStamp) bool { return false }
