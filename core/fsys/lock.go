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

// lockTarget walks to path and takes its lock. When the walk stopped at a
// missing directory, it walks again under the lock: a writer may have
// created the directory in between, and then the lock must be taken again
// by the directory's identity.
func (s *Files) lockTarget(path string, opts Options) (*Target, func(), error) {
	dir := s.lockDir(path)
	for range 8 {
		t, err := Walk(path, opts)
		if err != nil {
			return nil, nil, s.walkError(path, err)
		}
		unlock, err := s.fsLocks().Lock(dir, t)
		if err != nil {
			t.Close()
			return nil, nil, err
		}
		if !t.Missing {
			return t, unlock, nil
		}
		again, err := Walk(path, opts)
		if err != nil {
			unlock()
			t.Close()
			return nil, nil, s.walkError(path, err)
		}
		same := again.Missing && HeldKeys(t, again)
		again.Close()
		if same {
			return t, unlock, nil
		}
		unlock()
		t.Close()
	}
	return nil, nil, &ChangedError{Path: path, What: "kept changing"}
}

// lockDir is where the lock files for target live: <root>/locks, the root
// of this run (SetConfigRoot, else AGENTKIT_CONFIG_HOME, else the default
// root). A write elsewhere (dismissals.json under a host root, an agent's
// CLAUDE.md) must not create a root that does not exist yet (SPEC §2: the
// root appears on its first write); it gets "": in-process mutexes and the
// flock of its own directory (Locks).
func (s *Files) lockDir(target string) string {
	root := s.guard().ConfigRoot()
	if root == "" {
		return ""
	}
	if _, inside := s.Paths.Within(root, target); !inside {
		if fi, err := s.Fs.Stat(root); err != nil || !fi.IsDir() {
			return ""
		}
	}
	return s.Paths.Join(root, "locks")
}

// WithLock runs fn holding the lock of the file at path, the same lock
// UpdateFileOpts takes, across processes and within one. It creates no
// directory on the way and follows every link (a lock writes nothing).
// fn must not take another lock: use WriteAtomic inside it.
func (s *Files) WithLock(path string, fn func() error) error {
	if !s.onOS() || s.writable("lock", path) != nil { // a lock file is a write
		mu := s.lockTable().get(path)
		mu.Lock()
		defer mu.Unlock()
		return fn()
	}
	t, unlock, err := s.lockTarget(path, s.walkOptions(true, ""))
	if err != nil {
		return s.guard().NotWritable(path, err)
	}
	defer func() {
		unlock()
		t.Close()
	}()
	return fn()
}
