package content

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// Cache keeps the library a long-running server read, per set of layers,
// and hands it out again while nothing under the layers' kind folders
// changed. With Watch (inotify) that costs one read of a descriptor per
// call; without, a stamp of every folder and file. A link among the
// sources, a stamp it cannot take or a racy stamp means no reuse.
type Cache struct {
	// Watch, when not nil, tells of changes in the folders it watches; a
	// folder it cannot watch makes the cache stamp files instead.
	Watch *fsys.DirWatch
	// Now is the clock racy stamps are judged by; nil: time.Now. Tests
	// move it on to settle their files.
	Now func() time.Time

	mu      sync.Mutex
	entries map[string]cacheEntry // by the layers' names, folders and levels
	noWatch bool                  // a folder could not be watched: stamp from now on
}

type cacheEntry struct {
	lib     *Library
	stamps  map[string]fsys.Stamp // nil when watched
	watched bool                  // trusted while Watch's generation is gen
	gen     uint64
}

// Load is session.Options.LoadLibrary: the kept library when nothing
// changed, else a fresh read, kept when it can be vouched for.
func (c *Cache) Load(ctx context.Context, sys *core.System, layers []Layer) (*Library, error) {
	key := layersKey(layers)
	c.mu.Lock()
	e, found := c.entries[key]
	noWatch := c.noWatch
	c.mu.Unlock()
	if c.Watch != nil && !noWatch {
		if found && e.watched && e.gen == c.Watch.Generation() {
			return e.lib, nil
		}
		if gen, ok := c.watchLayers(ctx, layers); ok {
			// Watched before the read: a change during the read is a
			// new generation at the next call.
			lib, err := LoadLayerNames(ctx, sys, layers)
			c.keep(key, cacheEntry{lib: lib, watched: true, gen: gen}, err == nil)
			return lib, err
		}
	}
	// Stamped before the read, for the same reason.
	stamps, ok := stampLayers(layers, c.now())
	if ok && found && !e.watched && sameStamps(e.stamps, stamps) {
		return e.lib, nil
	}
	lib, err := LoadLayerNames(ctx, sys, layers)
	c.keep(key, cacheEntry{lib: lib, stamps: stamps}, err == nil && ok)
	return lib, err
}

func (c *Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Cache) keep(key string, e cacheEntry, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !ok {
		delete(c.entries, key)
		return
	}
	if c.entries == nil {
		c.entries = map[string]cacheEntry{}
	}
	c.entries[key] = e
}

// watchLayers watches every folder under the layers' kind folders and
// returns the generation from which on a change shows. A folder made
// between the walk and the watch would go unwatched, so the walk is
// repeated after the generation is taken until both agree. ok is false
// when the folders cannot vouch for the content: a link, an error, or a
// folder the kernel will not watch (then the cache stamps from now on).
func (c *Cache) watchLayers(ctx context.Context, layers []Layer) (gen uint64, ok bool) {
	dirs, ok := layerDirs(ctx, layers)
	for range 3 {
		if !ok {
			return 0, false
		}
		if !c.Watch.Add(dirs) {
			c.mu.Lock()
			c.noWatch = true
			c.mu.Unlock()
			return 0, false
		}
		gen = c.Watch.Generation()
		again, ok2 := layerDirs(ctx, layers)
		if ok2 && slices.Equal(again, dirs) {
			return gen, true
		}
		dirs, ok = again, ok2
	}
	return 0, false
}

// layerDirs lists each layer's kind folders (present or not: watching a
// missing one watches the parent its creation shows in) and every folder
// under them. ok is false at a link or an unreadable folder, and under a
// cancelled ctx (the load that follows then reports the cancellation).
func layerDirs(ctx context.Context, layers []Layer) ([]string, bool) {
	var dirs []string
	for _, ly := range layers {
		for _, k := range Kinds() {
			root := filepath.Join(ly.Dir, k.Dir())
			dirs = append(dirs, root)
			err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if err != nil {
					if p == root && os.IsNotExist(err) {
						return filepath.SkipDir
					}
					return err
				}
				if d.Type()&fs.ModeSymlink != 0 {
					return fs.ErrInvalid
				}
				if d.IsDir() && p != root {
					dirs = append(dirs, p)
				}
				return nil
			})
			if err != nil {
				return nil, false
			}
		}
	}
	return dirs, true
}

func layersKey(layers []Layer) string {
	var b strings.Builder
	for _, ly := range layers {
		b.WriteString(ly.Name + "\x00" + ly.Dir + "\x00" + ly.Level + "\x00" + ly.Within + "\x01")
	}
	return b.String()
}
func sameStamps(a, b map[string]fsys.Stamp) bool {
	if len(a) != len(b) {
		return false
	}
	for p, s := range a {
		if t, ok := b[p]; !ok || t != s {
			return false
		}
	}
	return true
}

// stampLayers stamps each layer's kinds' folders and every folder and
// file under them (a missing one is stamped as missing). ok is false
// when the stamps cannot vouch for the content: a link, an error, a
// racy stamp at now (fsys.RacyWindow), or a system where stamps do not
// vouch for files (the library is then read on every call).
func stampLayers(layers []Layer, now time.Time) (map[string]fsys.Stamp, bool) {
	out := map[string]fsys.Stamp{}
	// add stamps path; dir tells whether to walk into it.
	add := func(path string, root bool) (dir, ok bool) {
		st, missing, ok := fsys.Lstamp(path)
		switch {
		case !ok || (missing && !root):
			return false, false
		case missing:
			out[path] = st // a kind folder not made yet
			return false, true
		case st.IsLink() || st.Racy(now):
			return false, false
		}
		out[path] = st
		return st.IsDir(), true
	}
	for _, ly := range layers {
		// ly.Dir itself is not stamped: other files live there (settings,
		// state), and its kinds' folders are stamped, present or missing.
		for _, k := range Kinds() {
			root := filepath.Join(ly.Dir, k.Dir())
			dir, ok := add(root, true)
			if !ok {
				return nil, false
			}
			if dir && !walk(root, add) {
				return nil, false
			}
		}
	}
	return out, true
}

// walk stamps every entry under dir, depth first; false on the first
// that cannot be stamped.
func walk(dir string, add func(string, bool) (bool, bool)) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		sub, ok := add(p, false)
		if !ok || (sub && !walk(p, add)) {
			return false
		}
	}
	return true
}
