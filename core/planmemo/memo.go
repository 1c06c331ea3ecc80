// Package planmemo lets a run that would change nothing skip its plan. A
// memo holds what the last run reported, the key of everything that run
// was asked (settings, agents, level, version, environment), and the
// stamp of every file and folder its plan rested on (sources, targets,
// projected files, the places agents are detected): device, inode,
// size, mode, mtime and ctime, as git's index keeps them. When the key
// and every stamp are as they were, the plan would be the same, so its
// report is given again without parsing, placing, projecting or hashing.
//
// A memo is a hint kept per user under $XDG_CACHE_HOME/charter/plan/
// (else ~/.cache/…), never in the project. One that is missing, corrupt,
// reached through a link, owned by another account or writable by
// others is not used. A stamp within fsys.RacyWindow of the memo's time is
// racy (a change in the same clock tick keeps it): such a file is read
// and hashed again when the memo knows its sha256, else the memo is not
// used.
package planmemo

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

const header = "charter-plan 1\n"

// Enabled reports whether sys can keep memos: the real file system, with
// stamps that vouch for files.
func Enabled(sys *core.System) bool {
	_, real := sys.Fs.(*afero.OsFs)
	return real && fsys.StampsVouch
}

// Path is the memo file of name (e.g. a project's root and level): ""
// when there is no home.
func Path(sys *core.System, name string) string {
	base := strings.TrimSpace(sys.Getenv("XDG_CACHE_HOME"))
	if base == "" || !sys.Paths.IsAbs(base) {
		home, err := sys.Home()
		if err != nil {
			return ""
		}
		base = sys.Paths.Join(home, ".cache")
	}
	sum := sha256.Sum256([]byte(name))
	return sys.Paths.Join(base, "charter", "plan", hex.EncodeToString(sum[:16]))
}

// Key is the hash of everything a plan was asked, in order.
func Key(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s\n", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// entry is one watched path: its stamp, and the sha256 of its bytes when
// known (a file charter wrote or read whole in the run).
type entry struct {
	path string
	st   fsys.Stamp
	sum  string
}

// Load is the report the memo at path holds for key, when every watched
// path still has its stamp (a racy one re-hashed to its known sum). key
// is asked only of a memo found, so that a caller may still be making
// it while Load looks.
func Load(sys *core.System, path string, key func() string) ([]byte, bool) {
	if path == "" || !Enabled(sys) {
		return nil, false
	}
	lst, ok := sys.Fs.(afero.Lstater)
	if !ok {
		return nil, false
	}
	if fi, _, err := lst.LstatIfPossible(path); err != nil || !sys.Private(fi) {
		return nil, false
	}
	data, err := sys.ReadOptional(path, fsys.KindState)
	if err != nil || !bytes.HasPrefix(data, []byte(header)) {
		return nil, false
	}
	taken, entries, report, ok := parse(data[len(header):], key())
	if !ok {
		return nil, false
	}
	limit := taken - int64(fsys.RacyWindow)
	bad := fsys.Parallel(len(entries), func(i int) error {
		e := entries[i]
		if strings.HasPrefix(e.sum, namesPrefix) {
			if sum, ok := namesSum(e.path); !ok || sum != e.sum {
				return errStale
			}
			return nil
		}
		st, _, ok := fsys.Lstamp(e.path)
		if e.sum == kindSum {
			st = st.Type()
		}
		if !ok || st != e.st {
			return errStale
		}
		if e.sum != kindSum && !e.st.Absent() && e.st.ChangedSince(limit) && !sameSum(e.path, e.sum) {
			return errStale
		}
		return nil
	})
	return report, bad == nil
}

var errStale = errors.New("stale memo")

// kindSum marks an entry of which only the kind is watched (Watch.Kind).
const kindSum = "kind"

// namesPrefix starts the sum of a folder's names (Watch.Names).
const namesPrefix = "names-"

// sameSum reports whether the regular file at path (no link followed)
// holds bytes of sha256 sum.
func sameSum(path, sum string) bool {
	if sum == "" {
		return false
	}
	data, err := readNoFollow(path)
	if err != nil {
		return false
	}
	got := sha256.Sum256(data)
	return hex.EncodeToString(got[:]) == sum
}

// parse reads the memo after its header: key, time taken, the entries
// (dev ino size mode mtime ctime sum-or-dash path, one a line), the
// report's length and the report. Anything out of shape is no memo.
func parse(data []byte, key string) (taken int64, entries []entry, report []byte, ok bool) {
	if len(data) == 0 {
		return 0, nil, nil, false
	}
	// The entries' paths and sums are substrings of data, not copies:
	// nothing changes a memo's bytes once read, and a replay's fresh heap
	// pages cost more than its parsing.
	s := unsafe.String(unsafe.SliceData(data), len(data))
	line := func() (string, bool) {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return "", false
		}
		l := s[:i]
		s = s[i+1:]
		return l, true
	}
	k, ok1 := line()
	t, ok2 := line()
	n, ok3 := line()
	if !ok1 || !ok2 || !ok3 || k != key {
		return 0, nil, nil, false
	}
	taken, err1 := strconv.ParseInt(t, 10, 64)
	count, err2 := strconv.Atoi(n)
	if err1 != nil || err2 != nil || count < 0 || count > len(s) {
		return 0, nil, nil, false
	}
	entries = make([]entry, count)
	for i := range entries {
		l, ok := line()
		if !ok {
			return 0, nil, nil, false
		}
		var v [6]int64
		for j := range v {
			f, rest, ok := strings.Cut(l, " ") // SplitN's fields, one at a time
			x, err := strconv.ParseInt(f, 10, 64)
			if !ok || err != nil {
				return 0, nil, nil, false
			}
			v[j], l = x, rest
		}
		sum, path, ok := strings.Cut(l, " ")
		if !ok || path == "" {
			return 0, nil, nil, false
		}
		if sum == "-" {
			sum = ""
		} else if len(sum) != 64 && sum != kindSum && !strings.HasPrefix(sum, namesPrefix) {
			return 0, nil, nil, false
		}
		entries[i] = entry{path: path, sum: sum, st: fsys.Stamp{Dev: uint64(v[0]), Ino: uint64(v[1]), Size: v[2], Mode: uint32(v[3]), Mtime: v[4], Ctime: v[5]}}
	}
	l, ok := line()
	size, err := strconv.Atoi(l)
	if !ok || err != nil || size != len(s) {
		return 0, nil, nil, false // cut short
	}
	return taken, entries, data[len(data)-len(s):], true
}

// Save keeps report as the memo of key at path, with w's stamps taken
// now. start is when the run began, before its plan read anything: a
// path the run did not write, and whose sum is unknown, must be older
// than start by fsys.RacyWindow (else it may have changed while it was read,
// and no memo is kept); a file the run wrote or read whole carries its
// sum, so a racy stamp of it is checked by hashing.
func Save(sys *core.System, path, key string, w *Watch, start time.Time, report []byte) bool {
	if path == "" || !Enabled(sys) || w == nil || w.bad {
		return false
	}
	taken := time.Now()
	old := start.Add(-fsys.RacyWindow).UnixNano()
	began := start.UnixNano()
	entries := make([]entry, len(w.paths))
	bad := fsys.Parallel(len(w.paths), func(i int) error {
		p := w.paths[i]
		f := w.files[p]
		st, missing, ok := f.st, false, true
		if !f.stamped {
			st, missing, ok = fsys.Lstamp(p)
		}
		if !ok || (st.IsLink() && f.sum != "") {
			return errStale
		}
		e := entry{path: p, st: st}
		switch {
		case f.names:
			sum, ok := namesSum(p)
			if !ok {
				return errStale
			}
			e.st, e.sum = fsys.Stamp{}, sum
		case f.kind:
			e.st, e.sum = st.Type(), kindSum
		case missing:
			if f.sum != "" {
				return errStale
			}
		case f.sum != "":
			// Read whole in this run, or written by it: the sum vouches
			// for a racy stamp; a file only read must not have changed since.
			if !st.IsFile() || (!f.wrote && st.ChangedSince(began)) {
				return errStale
			}
			e.sum = f.sum
		case st.ChangedSince(old):
			return errStale
		}
		entries[i] = e
		return nil
	})
	if bad != nil {
		return false
	}
	for _, e := range entries {
		if strings.ContainsAny(e.path, "\n\r") {
			return false
		}
	}
	// Encoded straight into the temporary file through one small buffer:
	// at 3,000 rules the memo is 4.5 MB, whose fresh pages cost more to
	// fault in and copy than to format.
	fill := func(w io.Writer) error {
		b := bufio.NewWriterSize(w, 64<<10)
		fmt.Fprintf(b, "%s%s\n%d\n%d\n", header, key, taken.UnixNano(), len(entries))
		var line []byte
		for _, e := range entries {
			sum := e.sum
			if sum == "" {
				sum = "-"
			}
			line = append(fsys.AppendStamp(line[:0], e.st), ' ')
			line = append(append(append(line, sum...), ' '), e.path...)
			b.Write(append(line, '\n')[1:]) // AppendStamp leads with a space
		}
		fmt.Fprintf(b, "%d\n", len(report))
		b.Write(report)
		return b.Flush()
	}
	// A memo needs no fsync: one lost or torn in a crash (out of shape, or
	// a report that does not decode) is no memo, and the run plans.
	return sys.WriteAtomicFunc(path, fsys.WriteOptions{Owned: true, Volatile: true}, fill) == nil
}

// Forget removes the memo at path: a run that changed something, or one
// whose report is not to be given again.
func Forget(sys *core.System, path string) {
	if path != "" && Enabled(sys) {
		_ = sys.Fs.Remove(path)
	}
}
