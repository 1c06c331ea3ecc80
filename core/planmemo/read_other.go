//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package planmemo

// Elsewhere (Windows) no stamp vouches for a file (fsys.StampsVouch):
// every run plans, and nothing is read back.
func readNoFollow(string) ([]byte, error) { return nil, errStale }
