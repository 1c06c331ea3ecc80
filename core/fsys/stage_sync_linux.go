package fsys

import "golang.org/x/sys/unix"

// SyncStaged makes every staged file durable before any is renamed: one
// syncfs per file system holding them (Linux flushes a whole file system
// in one call), instead of an fsync per file one after another.
func SyncStaged(ss []*Staged) error {
	_, err := syncStaged(ss)
	return err
}

// syncStaged is SyncStaged; whole: each file system was synced whole.
func syncStaged(ss []*Staged) (whole bool, err error) {
	done := map[uint64]bool{}
	for _, s := range ss {
		if done[s.dev] {
			continue
		}
		done[s.dev] = true
		if !syncfsIn(s.t) {
			return false, syncEach(ss) // a file system without syncfs: one at a time
		}
	}
	return true, nil
}

// keepStagedFD: a staged file is closed once written. syncfs needs no
// descriptor of it, and 2,000 open ones grow the process's descriptor
// table again and again, each time waiting for an RCU grace period.
const keepStagedFD = false

// SyncDirs makes the targets' renames durable after them: one syncfs per
// file system (it commits every directory's new names at once), instead of
// an fsync per directory, each its own journal commit. A file system
// without syncfs has each directory synced.
func SyncDirs(ts []*Target) {
	done := map[uint64]bool{}
	for _, t := range ts {
		if t.Missing || done[t.dev] {
			continue
		}
		done[t.dev] = true
		if !syncfsIn(t) {
			syncDirsEach(ts)
			return
		}
	}
}

// renameNoReplace renames old to new in dir unless new exists (EEXIST);
// errNoReplace when the file system cannot say.
func renameNoReplace(dir int, old, new string) error {
	err := unix.Renameat2(dir, old, dir, new, unix.RENAME_NOREPLACE)
	if err == unix.EINVAL || err == unix.ENOSYS {
		return errNoReplace
	}
	return err
}

// syncPublished has nothing to do here: the syncfs of SyncDirs after the
// renames commits the published folders' names too.
func syncPublished([]*Target) {}

// syncfsIn syncs the file system of t's folder through that folder.
func syncfsIn(t *Target) bool {
	if t.hold() != nil {
		return false
	}
	defer t.release()
	rfd, err := t.readFD()
	return err == nil && unix.Syncfs(rfd) == nil
}
