package fsys

import "golang.org/x/sys/unix"

// SyncStaged makes every staged file durable before any is renamed: one
// syncfs per file system holding them (Linux flushes a whole file system
// in one call), instead of an fsync per file one after another.
func SyncStaged(ss []*Staged) error {
	done := map[uint64]bool{}
	for _, s := range ss {
		if done[s.dev] || s.fd < 0 {
			continue
		}
		done[s.dev] = true
		if err := unix.Syncfs(s.fd); err != nil {
			return syncEach(ss) // a file system without syncfs: one at a time
		}
	}
	return nil
}
