package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
)

// racyWindow: a file changed this close to its stamp may change again
// within the same clock tick with the same stamp, so the load is not kept.
const racyWindow = 20 * time.Millisecond

// libCache keeps the content library the server read, per set of layers,
// and hands it out again while every source folder and file has the
// stamp it had before that read. A link, a stamp it cannot take or a
// racy stamp means no reuse: the library is read again.
type libCache struct {
	mu      sync.Mutex
	entries map[string]libEntry // by the layers' names, folders and levels
	now     func() time.Time    // nil: time.Now; tests move it on to settle their files
}

type libEntry struct {
	lib    *content.Library
	stamps map[string]fileStamp
}

// fileStamp is what a file's stat says, enough to know it is unchanged.
type fileStamp struct {
	size         int64
	mode         uint32
	mtime, ctime int64
	dev, ino     uint64
}

// load is session.Options.LoadLibrary: the kept library when nothing
// changed, else a fresh read that is kept when its stamps are settled.
func (c *libCache) load(sys *core.System, layers []content.Layer) (*content.Library, error) {
	key := layersKey(layers)
	// Stamped before the read: a change during the read shows as a
	// different stamp at the next call.
	now := time.Now
	if c.now != nil {
		now = c.now
	}
	stamps, ok := stampLayers(layers, now())
	if ok {
		c.mu.Lock()
		e, found := c.entries[key]
		c.mu.Unlock()
		if found && sameStamps(e.stamps, stamps) {
			return e.lib, nil
		}
	}
	lib, err := content.LoadLayerNames(sys, layers)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil || !ok {
		delete(c.entries, key)
		return lib, err
	}
	if c.entries == nil {
		c.entries = map[string]libEntry{}
	}
	c.entries[key] = libEntry{lib: lib, stamps: stamps}
	return lib, nil
}

func layersKey(layers []content.Layer) string {
	var b strings.Builder
	for _, ly := range layers {
		b.WriteString(ly.Name + "\x00" + ly.Dir + "\x00" + ly.Level + "\x00" + ly.Within + "\x01")
	}
	return b.String()
}

func sameStamps(a, b map[string]fileStamp) bool {
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
// stamp younger than racyWindow at now.
func stampLayers(layers []content.Layer, now time.Time) (map[string]fileStamp, bool) {
	out := map[string]fileStamp{}
	limit := now.Add(-racyWindow).UnixNano()
	// add stamps path; dir tells whether to walk into it.
	add := func(path string, root bool) (dir, ok bool) {
		st, missing, ok := stampOf(path)
		if missing && root {
			out[path] = fileStamp{mode: 1<<32 - 1} // missing: no file has this mode
			return false, true
		}
		if !ok || isLink(st) || st.mtime >= limit || st.ctime >= limit {
			return false, false
		}
		out[path] = st
		return isDir(st), true
	}
	for _, ly := range layers {
		// ly.Dir itself is not stamped: other files live there (settings,
		// state), and its kinds' folders are stamped, present or missing.
		for _, k := range content.Kinds() {
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
