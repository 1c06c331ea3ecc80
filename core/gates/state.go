package gates

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// SessionState is what the hook remembers about one Claude Code session.
type SessionState struct {
	Session string `json:"session"`
	Blocks  int    `json:"blocks"` // consecutive blocks so far
	Asked   bool   `json:"asked"`  // on_failure ask: the agent was told to ask the user
	// TrustTold: the user was told that the project's gates wait for trust.
	TrustTold bool      `json:"trustTold,omitempty"`
	Updated   time.Time `json:"updated"`
}

// idle reports whether st remembers nothing: the same as no file at all.
func (st SessionState) idle() bool { return st.Blocks == 0 && !st.Asked && !st.TrustTold }

// LogEntry is one line of gates.log: one hook decision.
type LogEntry struct {
	Time           time.Time `json:"time"`
	Session        string    `json:"session,omitempty"`
	Cwd            string    `json:"cwd,omitempty"`
	StopHookActive bool      `json:"stopHookActive"`
	OnFailure      string    `json:"onFailure,omitempty"`
	Decision       string    `json:"decision"`
	Exit           int       `json:"exit"`
	Blocks         int       `json:"blocks"`
	Failing        []string  `json:"failing,omitempty"`
	Error          string    `json:"error,omitempty"`
}

// StateStore keeps the hook's per-session state and its decision log.
type StateStore interface {
	// Load returns a session's state; a session never seen is the zero
	// state and no error.
	Load(session string) (SessionState, error)
	Save(st SessionState) error
	Append(e LogEntry) error
}

// MaxLogBytes caps gates.log. An append that would pass it first renames
// the log to gates.log.1 (replacing the previous one), so the two files
// hold at most about twice this, and the newest decisions are always kept.
const MaxLogBytes = 1 << 20

// SessionTTL is how long a session's state file is kept after its last
// update; older ones are removed when another session's state is saved.
// A session resumed after that starts with a fresh count.
const SessionTTL = 30 * 24 * time.Hour

// FileState is the StateStore under a scope's state directory:
//
//	<dir>/gates.log                      decisions, JSON lines (MaxLogBytes, one rotation)
//	<dir>/gates-sessions/<hash>.json     one small file per session, written atomically
//
// These are charter's own state files: they are not guarded against shared
// links (SPEC §8).
type FileState struct {
	sys *core.System
	dir string
}

// NewFileState keeps hook state in dir, normally <scope>/state.
func NewFileState(sys *core.System, dir string) *FileState { return &FileState{sys: sys, dir: dir} }

func (s *FileState) sessionsDir() string { return s.sys.Paths.Join(s.dir, "gates-sessions") }

// LogPath is where decisions are appended.
func (s *FileState) LogPath() string { return s.sys.Paths.Join(s.dir, "gates.log") }

// sessionPath names a session's file by a hash: session ids come from
// stdin and must never choose a path.
func (s *FileState) sessionPath(session string) string {
	sum := sha256.Sum256([]byte(session))
	return s.sys.Paths.Join(s.sessionsDir(), hex.EncodeToString(sum[:16])+".json")
}

func (s *FileState) Load(session string) (SessionState, error) {
	path := s.sessionPath(session)
	b, err := s.sys.ReadFile(path, fsys.KindState)
	if errors.Is(err, fs.ErrNotExist) {
		return SessionState{Session: session}, nil
	}
	if err != nil {
		return SessionState{Session: session}, fsys.ReadError(path, err)
	}
	var st SessionState
	if err := json.Unmarshal(b, &st); err != nil || st.Session != session {
		return SessionState{Session: session}, fmt.Errorf("read %s: not a gate hook state file", path)
	}
	return st, nil
}

func (s *FileState) Save(st SessionState) error {
	st.Updated = s.sys.Now().UTC()
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := s.sys.WriteAtomic(s.sessionPath(st.Session), append(b, '\n')); err != nil {
		return err
	}
	s.prune(s.sessionPath(st.Session))
	return nil
}

// LockSession runs fn holding the lock of the session's state file, across
// processes: Load and Save inside fn are one read-modify-write.
func (s *FileState) LockSession(session string, fn func() error) error {
	return s.sys.WithLock(s.sessionPath(session), fn)
}

// prune removes the state of sessions not seen for SessionTTL, and the
// temporary files of writers killed before their rename (a hook ended by
// SIGKILL) once they are fsys.StaleTempAge old: the folder holds every
// session's file, and a lock held here (LockSession) is one session's, so
// a younger one may be another session's live hook. It is best effort: a
// file it cannot remove is tried again next time.
func (s *FileState) prune(keep string) {
	dir := s.sessionsDir()
	entries, err := afero.ReadDir(s.sys.Fs, dir)
	if err != nil {
		return
	}
	cutoff := s.sys.Now().Add(-SessionTTL)
	staleTemp := s.sys.Now().Add(-fsys.StaleTempAge)
	for _, e := range entries {
		p := s.sys.Paths.Join(dir, e.Name())
		switch {
		case p != keep && strings.HasSuffix(e.Name(), ".json") && e.ModTime().Before(cutoff):
			s.sys.Fs.Remove(p)
		case jsonTemp(e.Name()) && e.Mode().IsRegular() && e.ModTime().Before(staleTemp):
			s.sys.Fs.Remove(p)
		}
	}
}

func (s *FileState) Append(e LogEntry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if err := s.sys.Fs.MkdirAll(s.dir, fsys.DirMode); err != nil {
		return fmt.Errorf("create %s: %w", s.dir, err)
	}
	path := s.LogPath()
	if fi, err := s.sys.Fs.Stat(path); err == nil && fi.Size()+int64(len(line)) > MaxLogBytes {
		if err := s.sys.Fs.Rename(path, path+".1"); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("rotate %s: %w", path, err)
		}
		s.sys.Fs.Chmod(path+".1", fsys.FileMode) // best effort: it is no longer written
	}
	f, err := s.sys.Fs.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, fsys.FileMode)
	if err != nil {
		return fmt.Errorf("append to %s: %w", path, err)
	}
	// The log is charter's own: 0600 after every write, also when an older
	// log had a wider mode (O_CREATE's mode applies to a new file only).
	if err := ownMode(s.sys.Fs, f, path); err != nil {
		f.Close()
		return fmt.Errorf("append to %s: %w", path, err)
	}
	// One write of one line: appends from concurrent hooks do not interleave.
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("append to %s: %w", path, err)
	}
	return f.Close()
}

// ownMode narrows an open file of charter's own to fsys.FileMode, by its
// handle where the file system has one (the name may lead elsewhere by now).
func ownMode(afs afero.Fs, f afero.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Mode().Perm() == fsys.FileMode {
		return nil
	}
	if c, ok := f.(interface{ Chmod(fs.FileMode) error }); ok {
		return c.Chmod(fsys.FileMode)
	}
	return afs.Chmod(path, fsys.FileMode)
}

// jsonTemp reports whether name is charter's temporary file of a state
// file (fsys.TempName).
func jsonTemp(name string) bool {
	of, ok := fsys.TempOf(name)
	return ok && strings.HasSuffix(of, ".json")
}
