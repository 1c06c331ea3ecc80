//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsys

// heldSet is empty here: the portable walk holds no folders between walks.
type heldSet struct{}

func (h *heldSet) hold() {}

func (h *heldSet) done() {}

func (h *heldSet) gitDirs(root string, find func(string) []string) []string { return find(root) }
