//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

// gitStep refuses the step into name from top when it is the boundary's
// ".git": checked before the step, so nothing is opened or made there.
func (w *walker) gitStep(top *frame, name string) error {
	if w.hasBound && top.dev == w.bound[0] && top.ino == w.bound[1] && isGitName(name) {
		return &GitDirError{Path: w.path, Link: w.outLink, Git: join(top.path, name)}
	}
	return nil
}

// gitIdentities are the (dev, ino) of the folders that exist among dirs.
func gitIdentities(dirs []string) [][2]uint64 {
	var out [][2]uint64
	for _, d := range dirs {
		if id, ok := identity(d); ok {
			out = append(out, id)
		}
	}
	return out
}
