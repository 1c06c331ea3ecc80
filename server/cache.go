package server

import (
	"io/fs"
	"slices"
	"sync/atomic"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/fsys"
)

// settleTime is how old a file's mtime must be before its identity alone
// may vouch for its content: a file system with coarse timestamps can
// write twice within one tick and keep size, inode and mtime.
const settleTime = 2 * time.Second

// fileID is what a stat tells of one file, enough to see that it changed
// without reading it. A directory's mtime changes when an entry is added,
// removed or renamed.
type fileID struct {
	exists   bool
	size     int64
	mtime    int64 // UnixNano
	mode     fs.FileMode
	dev, ino uint64 // 0 where the file system has none
}

func statID(afs afero.Fs, path string) fileID {
	if id, ok := fastStat(afs, path); ok {
		return id
	}
	fi, err := afs.Stat(path)
	if err != nil {
		return fileID{} // gone or unreadable: both differ from a file seen
	}
	id := fileID{exists: true, size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}
	id.dev, id.ino = inode(fi)
	return id
}

// filesCache holds one value built from a list of files. The value is
// served while every file keeps its identity; every lookup stats them all
// again (a stat is cheap), so a write by any process is seen by the next
// lookup, with no time-to-live. A value built from a file modified within
// settleTime is not trusted on identity: it is rebuilt on every lookup
// until the file settles.
//
// The list of files comes with the value, so the cache composes with any
// set of layer files: the builder says what it read.
//
// Where inotify is available the files are not statted: the cache watches
// the directories their lookup visits (see fsys.DirWatch), and a value stays
// good while no event came in since its build began.
type filesCache[T any] struct {
	cur   atomic.Pointer[filesEntry[T]]
	now   func() time.Time
	watch *fsys.DirWatch // nil: stat the files

	unwatchable atomic.Bool // a directory could not be watched: stat instead
}

type filesEntry[T any] struct {
	key     string // what besides the files the value depends on
	paths   []string
	ids     []fileID // nil: the paths are known, the value is not trusted
	watched bool     // trusted while the watch's generation is gen
	gen     uint64
	val     T
}

// get returns the cached value for key if none of its files changed, else
// builds it again. build returns the value and the files it read; it is
// called with no lock held, so concurrent lookups may build in parallel
// (the last to finish is kept; the next lookup checks it like any other).
func (c *filesCache[T]) get(afs afero.Fs, key string, build func() (T, []string, error)) (T, error) {
	e := c.cur.Load()
	if e != nil && e.key != key {
		e = nil // built for another PATH: nothing of it applies
	}
	w := c.watch
	if e != nil && e.watched && e.gen == w.Generation() {
		return e.val, nil
	}
	if e != nil && w != nil && !c.unwatchable.Load() {
		if w.Add(e.paths) {
			// The watches are in place before the generation is taken and
			// the build reads: any later change is an event that retires
			// the value.
			gen := w.Generation()
			v, paths, err := build()
			if err != nil {
				var zero T
				return zero, err
			}
			c.cur.Store(&filesEntry[T]{key: key, paths: paths, val: v,
				watched: slices.Equal(paths, e.paths), gen: gen})
			return v, nil
		}
		c.unwatchable.Store(true) // out of watches, say: stat from now on
	}
	if e != nil && e.ids != nil && c.unchanged(afs, e) {
		return e.val, nil
	}
	// Identities are taken before the build reads anything: a write in
	// between leaves an entry that no longer matches, never a stale one.
	// The files are those of the last build; when the build reads others,
	// its value is served once and only the list is kept.
	var pre []string
	if e != nil {
		pre = e.paths
	}
	ids, settled := c.stat(afs, pre)
	v, paths, err := build()
	if err != nil {
		var zero T
		return zero, err
	}
	next := &filesEntry[T]{key: key, paths: paths, val: v}
	if settled && e != nil && slices.Equal(paths, pre) {
		next.ids = ids
	}
	c.cur.Store(next)
	return v, nil
}

// unchanged re-stats e's files.
func (c *filesCache[T]) unchanged(afs afero.Fs, e *filesEntry[T]) bool {
	for i, p := range e.paths {
		if statID(afs, p) != e.ids[i] {
			return false
		}
	}
	return true
}

func (c *filesCache[T]) stat(afs afero.Fs, paths []string) ([]fileID, bool) {
	now := time.Now
	if c.now != nil {
		now = c.now
	}
	limit := now().Add(-settleTime).UnixNano()
	ids := make([]fileID, len(paths))
	settled := true
	for i, p := range paths {
		ids[i] = statID(afs, p)
		if ids[i].exists && ids[i].mtime > limit {
			settled = false
		}
	}
	return ids, settled
}
