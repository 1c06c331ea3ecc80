//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsys

// Target is a walked path; on this system the portable walk (see
// portableTarget for the window it leaves).
type Target = portableTarget

// Walk walks path with Lstat on each component; see portableTarget.
func Walk(path string, o Options) (*Target, error) { return portableWalk(path, o) }
