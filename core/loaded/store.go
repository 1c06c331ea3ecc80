package loaded

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// MaxSessions is how many sessions' records are kept: saving one removes
// the oldest beyond it.
const MaxSessions = 20

// maxFiles bounds one session's record: a session loads a handful of
// instruction files, each counted once.
const maxFiles = 1000

// Session is what charter knows one agent session loaded.
type Session struct {
	Session string    `json:"session"`
	Agent   string    `json:"agent"`
	Cwd     string    `json:"cwd,omitempty"`
	Updated time.Time `json:"updated"`
	Files   []File    `json:"files"`
}

// File is one projected file the session reported loading, with the item
// charter projected it for.
type File struct {
	Path   string    `json:"path"`
	Kind   string    `json:"kind"`
	Item   string    `json:"item"`
	Agent  string    `json:"agent"` // the agent charter projected it for
	Level  string    `json:"level"` // user or project
	Reason string    `json:"reason,omitempty"`
	At     time.Time `json:"at"`
}

// Dir is where the session records live below a scope's state directory:
//
//	<scope>/state/loaded/<hash>.json   one small file per session, written atomically
//
// They are charter's own state files, like the gate hook's.
func Dir(sys *core.System, stateDir string) string { return sys.Paths.Join(stateDir, "loaded") }

// sessionPath names a session's file by a hash: session ids come from
// stdin and must never choose a path.
func sessionPath(sys *core.System, dir, session string) string {
	sum := sha256.Sum256([]byte(session))
	return sys.Paths.Join(dir, hex.EncodeToString(sum[:16])+".json")
}

func load(sys *core.System, path string) (Session, bool, error) {
	b, err := sys.ReadFile(path, fsys.KindState)
	if errors.Is(err, fs.ErrNotExist) {
		return Session{}, false, nil
	}
	if err != nil {
		return Session{}, false, fsys.ReadError(path, err)
	}
	var s Session
	if err := json.Unmarshal(b, &s); err != nil || s.Session == "" {
		return Session{}, false, fmt.Errorf("read %s: not a loaded-instructions record", path)
	}
	return s, true, nil
}

// add records f in session's file under dir, created on the first event
// of the session even when f is nil (the session then counts as the last
// one, having loaded none of charter's files).
func add(sys *core.System, dir string, in Input, agent string, f *File) error {
	path := sessionPath(sys, dir, in.SessionID)
	return sys.WithLock(path, func() error {
		s, exists, err := load(sys, path)
		if err != nil || s.Session != in.SessionID {
			s = Session{Session: in.SessionID} // unreadable or another id's: start over
		}
		if exists && f == nil && err == nil {
			return nil // nothing new
		}
		s.Agent = agent
		if s.Cwd == "" {
			s.Cwd = in.Cwd
		}
		if f != nil {
			i := slices.IndexFunc(s.Files, func(o File) bool { return o.Path == f.Path })
			switch {
			case i >= 0:
				s.Files[i] = *f
			case len(s.Files) < maxFiles:
				s.Files = append(s.Files, *f)
			}
		}
		s.Updated = sys.Now().UTC()
		b, err := json.Marshal(s)
		if err != nil {
			return err
		}
		// Locked: every write of this file holds its lock, so a temporary
		// file of its name is a killed hook's, however young.
		if err := sys.WriteAtomicOpts(path, fsys.WriteOptions{ConfirmShared: true, Owned: true, Locked: true, Volatile: true}, append(b, '\n')); err != nil {
			return err
		}
		prune(sys, dir, path)
		return nil
	})
}

// prune keeps the MaxSessions newest records (keep always among them) and
// removes the temporary files of writers killed before their rename once
// they are fsys.StaleTempAge old: the lock held here is keep's alone, so a
// younger one may be another session's live hook. Best effort: what it
// cannot remove is tried again next time.
func prune(sys *core.System, dir, keep string) {
	entries, err := afero.ReadDir(sys.Fs, dir)
	if err != nil {
		return
	}
	staleTemp := sys.Now().Add(-fsys.StaleTempAge)
	var records []fs.FileInfo
	for _, e := range entries {
		switch {
		case jsonTemp(e.Name()) && e.Mode().IsRegular() && e.ModTime().Before(staleTemp):
			sys.Fs.Remove(sys.Paths.Join(dir, e.Name()))
		case !strings.HasPrefix(e.Name(), ".") && strings.HasSuffix(e.Name(), ".json") && sys.Paths.Join(dir, e.Name()) != keep:
			records = append(records, e)
		}
	}
	slices.SortFunc(records, func(a, b fs.FileInfo) int { return b.ModTime().Compare(a.ModTime()) })
	for _, e := range records[min(len(records), MaxSessions-1):] {
		sys.Fs.Remove(sys.Paths.Join(dir, e.Name()))
	}
}

// sessions reads every kept record, newest first; unreadable ones are
// skipped (a record is proof of loading, never needed to run).
func sessions(ctx context.Context, sys *core.System, dir string) ([]Session, error) {
	entries, err := afero.ReadDir(sys.Fs, dir)
	if err != nil {
		return nil, ctx.Err()
	}
	var out []Session
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(e.Name(), ".json") || !e.Mode().IsRegular() {
			continue
		}
		if s, ok, err := load(sys, sys.Paths.Join(dir, e.Name())); ok && err == nil {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b Session) int { return b.Updated.Compare(a.Updated) })
	return out, nil
}

// jsonTemp reports whether name is charter's temporary file of a record
// (fsys.TempName).
func jsonTemp(name string) bool {
	of, ok := fsys.TempOf(name)
	return ok && strings.HasSuffix(of, ".json")
}
