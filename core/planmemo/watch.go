package planmemo

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/fsys"
)

// Watch is the set of paths a plan rested on, each stamped when the memo
// is saved. A path may be missing (its absence is watched), but never a
// link: a memo cannot vouch for what a link leads to.
type Watch struct {
	paths []string
	files map[string]file
	bad   bool
}

type file struct {
	sum   string // sha256 of the bytes, when known
	wrote bool   // the run wrote the file
	kind  bool   // only what it is (file, folder, nothing) is watched
	names bool   // only the names in the folder are watched
	// st, when stamped, is the stamp a walk took while it listed the
	// folder above; Save keeps it rather than stamping the path again.
	// Taken after the plan's start, it is judged as Save's own would be;
	// a change since only makes the next run miss.
	st      fsys.Stamp
	stamped bool
}

// maxWatched caps a memo: beyond it a run plans as before.
const maxWatched = 1 << 20

func (w *Watch) add(path string, f file) {
	if w.files == nil {
		w.files = map[string]file{}
	}
	if _, seen := w.files[path]; seen {
		if f.sum != "" {
			w.files[path] = f
		}
		return
	}
	if len(w.paths) >= maxWatched {
		w.bad = true
		return
	}
	w.paths = append(w.paths, path)
	w.files[path] = f
}

// Path watches path: a file, a folder (its entries added or removed) or
// nothing there.
func (w *Watch) Path(path string) {
	if path != "" {
		w.add(filepath.Clean(path), file{})
	}
}

// Kind watches only what path is: a folder, a file, a link or nothing.
func (w *Watch) Kind(path string) {
	if path != "" {
		w.add(filepath.Clean(path), file{kind: true})
	}
}

// Names watches the names in the folder dir, not its stamp (a run
// renames files into it); a name refuse accepts means no memo.
func (w *Watch) Names(dir string, refuse func(string) bool) {
	names, err := namesIn(dir)
	if err != nil || slices.ContainsFunc(names, refuse) {
		w.bad = true
		return
	}
	w.add(filepath.Clean(dir), file{names: true})
}

// namesIn is the sorted names in dir, nil when there is no dir.
func namesIn(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	slices.Sort(names)
	return names, err
}

// namesSum is the entry's sum for a folder's names.
func namesSum(dir string) (string, bool) {
	names, err := namesIn(dir)
	if err != nil {
		return "", false
	}
	return namesPrefix + Sum([]byte(strings.Join(names, "\x00"))), true
}

// File watches a file that holds bytes of sha256 sum; wrote: the run
// wrote them.
func (w *Watch) File(path, sum string, wrote bool) {
	w.add(filepath.Clean(path), file{sum: sum, wrote: wrote})
}

// Written watches a file the run wrote with its bytes' sum, by the stamp
// st the run took after its last rename, rather than stamping it again.
// Taken after the run wrote it, it is judged as Save's own would be; a
// change since only makes the next run miss.
func (w *Watch) Written(path, sum string, st fsys.Stamp) {
	w.add(filepath.Clean(path), file{sum: sum, wrote: true, st: st, stamped: true})
}

// Tree watches dir and everything below it; a link anywhere, or a
// folder that cannot be listed, means no memo.
func (w *Watch) Tree(dir string) {
	w.walk(filepath.Clean(dir), -1)
}

// Entries watches dir and what is directly in it (not further down).
func (w *Watch) Entries(dir string) {
	w.walk(filepath.Clean(dir), 1)
}

func (w *Watch) walk(dir string, depth int) {
	w.walkFrom(dir, depth, fsys.Stamp{}, false)
}

// walkFrom is walk of a folder the walk above already stamped (stamped).
func (w *Watch) walkFrom(dir string, depth int, st fsys.Stamp, stamped bool) {
	w.add(dir, file{st: st, stamped: stamped})
	if depth == 0 || w.bad {
		return
	}
	if !stamped {
		var missing, ok bool
		st, missing, ok = fsys.Lstamp(dir)
		switch {
		case !ok:
			w.bad = true
			return
		case missing || !st.IsDir():
			return // a file or nothing: its stamp tells
		}
	}
	d, err := os.Open(dir)
	if err != nil {
		w.bad = true
		return
	}
	ents, err := d.ReadDir(-1)
	type sub struct {
		path string
		st   fsys.Stamp
		ok   bool
	}
	var subs []sub // walked once d is closed: one descriptor at a time
	if err == nil {
		slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		for _, e := range ents {
			p := filepath.Join(dir, e.Name())
			if e.Type()&os.ModeSymlink != 0 && depth < 0 {
				w.bad = true // a source behind a link
				break
			}
			est, ok := fsys.LstampIn(d, e.Name())
			if e.IsDir() {
				subs = append(subs, sub{p, est, ok && est.IsDir()})
			} else {
				w.add(p, file{st: est, stamped: ok})
			}
		}
	}
	d.Close()
	if err != nil {
		w.bad = true
	}
	for _, s := range subs {
		if w.bad {
			return
		}
		w.walkFrom(s.path, depth-1, s.st, s.ok)
	}
}

// Refuse marks the watch as unable to vouch for the plan: no memo.
func (w *Watch) Refuse() { w.bad = true }

// Below watches dir and what lies up to depth levels down.
func (w *Watch) Below(dir string, depth int) {
	w.walk(filepath.Clean(dir), depth)
}

// Read watches a file by the bytes it holds now, read without following
// a link; wrote: the run wrote it. A file that cannot be read means no
// memo.
func (w *Watch) Read(path string, wrote bool) {
	data, err := readNoFollow(path)
	if err != nil {
		w.bad = true
		return
	}
	w.File(path, Sum(data), wrote)
}

// Sum is the sha256 of data, as a memo keeps it.
func Sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}
