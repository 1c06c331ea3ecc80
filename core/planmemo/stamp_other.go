//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package planmemo

import "github.com/agentkit/charter/core/fsys"

// Elsewhere (Windows) no stamp vouches for a file: every run plans.
func lstamp(string) (fsys.Stamp, bool, bool) { return fsys.Stamp{}, false, false }

func isDir(fsys.Stamp) bool  { return false }
func isLink(fsys.Stamp) bool { return false }
func isFile(fsys.Stamp) bool { return false }

const supported = false

func readNoFollow(string) ([]byte, error) { return nil, errStale }

const fileType = 0
