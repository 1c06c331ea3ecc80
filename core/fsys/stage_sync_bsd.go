//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

// SyncStaged makes every staged file durable before any is renamed.
func SyncStaged(ss []*Staged) error { return syncEach(ss) }

// syncStaged is SyncStaged, never of a whole file system.
func syncStaged(ss []*Staged) (whole bool, err error) { return false, syncEach(ss) }

// SyncDirs makes the renames durable: each directory synced once.
func SyncDirs(ts []*Target) { syncDirsEach(ts) }

// renameNoReplace is not offered here: Commit looks, then renames.
func renameNoReplace(dir int, old, new string) error { return errNoReplace }

// syncPublished makes the folders' renames durable: each parent synced.
func syncPublished(parents []*Target) { syncDirsEach(parents) }

// keepStagedFD: each staged file is fsynced through the descriptor that
// wrote it.
const keepStagedFD = true
