package fsys

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Stripes is the number of lock files in a lock directory. Files hash onto
// them, so the directory never holds more than Stripes files however many
// paths charter writes; two files that share a stripe merely wait for each
// other for the few milliseconds a write takes.
const Stripes = 64

// Locks serialises writers of one file, across processes and within one.
//
// A file is locked by up to two keys, each hashed onto one of Stripes: its
// physical path as the walk found it, and, when its directory exists, the
// directory's (dev, ino) plus the name. Two spellings of one file share
// both. The path key does not change when a missing directory is created,
// so a writer that found the directory missing and one that finds it
// created still meet. Each stripe is an in-process mutex and, given a lock
// directory (charter's config root), a lock file there: the directory
// never holds more than Stripes files however many paths are written.
//
// On Unix the final directory itself is flocked too (Target.lockDir): that
// needs no file at all, and it is the lock two charters with different
// config roots share, for files both write (dismissals.json, CLAUDE.md).
//
// Deadlock freedom: every holder takes its stripes in ascending order and
// the directory flock last, and no caller nests a second Lock inside a
// first (WriteAtomic takes none). flock belongs to an open file
// description, not to a process, so the in-process mutex is taken first:
// goroutines of one process queue on it instead of each parking a thread
// in flock.
type Locks struct {
	mu [Stripes]sync.Mutex
}

// NewLocks returns an empty lock table; keep one per System.
func NewLocks() *Locks { return &Locks{} }

// Lock takes t's locks, with lock files in dir (created 0700 when missing)
// unless dir is "", and returns the function that releases them.
func (l *Locks) Lock(dir string, t *Target) (unlock func(), err error) {
	if dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("lock %s: %w", t.Path, err)
		}
	}
	var stripes []int
	for _, k := range t.lockKeys() {
		stripes = append(stripes, stripe(k))
	}
	slices.Sort(stripes)
	stripes = slices.Compact(stripes)
	var release []func()
	unlock = func() {
		for i := len(release) - 1; i >= 0; i-- {
			release[i]()
		}
	}
	for _, s := range stripes {
		mu := &l.mu[s]
		mu.Lock()
		release = append(release, mu.Unlock)
		if dir == "" {
			continue
		}
		rel, err := lockFile(filepath.Join(dir, fmt.Sprintf("%02d.lock", s)))
		if err != nil {
			unlock()
			return nil, fmt.Errorf("lock %s: %w", t.Path, err)
		}
		release = append(release, rel)
	}
	rel, err := t.lockDir()
	if err != nil {
		unlock()
		return nil, fmt.Errorf("lock %s: %w", t.Path, err)
	}
	release = append(release, rel)
	return unlock, nil
}

// HeldKeys reports whether the locks taken for held also cover t: a walk
// repeated under a lock may find the path changed (a directory created
// meanwhile), and then the caller must lock again.
func HeldKeys(held, t *Target) bool {
	have := held.lockKeys()
	for _, k := range t.lockKeys() {
		if !slices.Contains(have, k) {
			return false
		}
	}
	return true
}

// stripe hashes a key the same way in every process (no per-process seed).
func stripe(key string) int {
	sum := sha256.Sum256([]byte(key))
	return int(binary.BigEndian.Uint64(sum[:8]) % Stripes)
}
