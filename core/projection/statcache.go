package projection

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// The stat cache lets a plan know a target holds a sha256 without reading
// it, as git's index does: each projected file's stamp (device, inode,
// size, mode, mtime, ctime) beside the sha256 of the bytes it held when
// stamped. It is per user and per record, under
// $XDG_CACHE_HOME/charter/stat/ (else ~/.cache/…), never in the project:
// the committed projection.lock stays the same on every machine.
//
// It is a hint. An entry is used only when the target's stamp now equals
// it exactly, and only to skip reading the target; what is written and
// where still comes from the plan alone. A missing, corrupt or foreign
// cache is read as empty. A stamp taken within fsys.RacyWindow of its file's
// last change is never kept (a change in the same clock tick would leave
// the stamp as it was), so the next run reads that file again.
const statCacheHeader = "charter-stat 1\n"

type stamped struct {
	sum string
	st  fsys.Stamp
}

type statCache struct {
	path    string
	entries map[string]stamped // by the record's path
}

// statCachePath is the cache file of a record: "" when there is no home.
func statCachePath(sys *core.System, req Request) string {
	base := strings.TrimSpace(sys.Getenv("XDG_CACHE_HOME"))
	if base == "" || !sys.Paths.IsAbs(base) {
		home, err := sys.Home()
		if err != nil {
			return ""
		}
		base = sys.Paths.Join(home, ".cache")
	}
	return sys.Paths.Join(base, "charter", "stat", Sum([]byte(req.Root + "\x00" + req.RecordPath))[:32])
}

// loadStatCache reads the cache of req's record; nil when there is none
// to use (no home, not on the real file system).
func loadStatCache(sys *core.System, req Request) *statCache {
	if _, real := sys.Fs.(*afero.OsFs); !real || req.Root == "" {
		return nil // stamps come from held folders: the project's batch
	}
	path := statCachePath(sys, req)
	if path == "" {
		return nil
	}
	c := &statCache{path: path, entries: map[string]stamped{}}
	// Never through a link, never a file another account could write.
	lst, ok := sys.Fs.(afero.Lstater)
	if !ok {
		return c
	}
	if fi, _, err := lst.LstatIfPossible(path); err != nil || !sys.Private(fi) {
		return c
	}
	data, err := sys.ReadOptional(path, fsys.KindState)
	if err != nil || !bytes.HasPrefix(data, []byte(statCacheHeader)) {
		return c
	}
	if entries, ok := parseStatCache(string(data[len(statCacheHeader):])); ok {
		c.entries = entries
	}
	return c
}

// parseStatCache reads one entry a line: sum dev ino size mode mtime
// ctime path. Any line out of shape discards the whole cache.
func parseStatCache(s string) (map[string]stamped, bool) {
	m := make(map[string]stamped, strings.Count(s, "\n"))
	for line := range strings.Lines(s) {
		line, ok := strings.CutSuffix(line, "\n")
		if !ok {
			return nil, false
		}
		f := strings.SplitN(line, " ", 8)
		if len(f) != 8 || len(f[0]) != 64 || f[7] == "" {
			return nil, false
		}
		var n [6]int64
		for i := range n {
			v, err := strconv.ParseInt(f[i+1], 10, 64)
			if err != nil {
				return nil, false
			}
			n[i] = v
		}
		m[f[7]] = stamped{sum: f[0], st: fsys.Stamp{Dev: uint64(n[0]), Ino: uint64(n[1]), Size: n[2], Mode: uint32(n[3]), Mtime: n[4], Ctime: n[5]}}
	}
	return m, true
}

// hit is the sum the cache holds for path when its stamp now is st.
func (c *statCache) hit(path string, st fsys.Stamp, ok bool) (string, bool) {
	if c == nil || !ok {
		return "", false
	}
	e, found := c.entries[path]
	if !found || e.st != st {
		return "", false
	}
	return e.sum, true
}

// encode is the cache as written, entries in the order given.
func encodeStatCache(paths []string, entries map[string]stamped) []byte {
	var b bytes.Buffer
	b.Grow(len(statCacheHeader) + 160*len(paths))
	b.WriteString(statCacheHeader)
	for _, p := range paths {
		e, ok := entries[p]
		if !ok || strings.ContainsAny(p, "\n\r") {
			continue
		}
		b.WriteString(e.sum)
		b.Write(fsys.AppendStamp(b.AvailableBuffer(), e.st))
		b.WriteByte(' ')
		b.WriteString(p)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// save writes the cache; a failure only costs the next run its reads.
func (c *statCache) save(sys *core.System, paths []string, entries map[string]stamped) {
	if c == nil {
		return
	}
	// A cache needs no fsync: a run that finds it lost or torn (any line
	// out of shape) reads the outputs instead.
	_ = sys.WriteAtomicOpts(c.path, fsys.WriteOptions{Owned: true, Volatile: true}, encodeStatCache(paths, entries))
}
