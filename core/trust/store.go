// Package trust keeps the user-global record of trusted projects
// (trust.json, SPEC §13): which project roots the user trusted, with the
// hash of the values charter runs from them, and whether charter believes
// the file at all.
package trust

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/profile"
)

// FileName is the user-global record of trusted projects (SPEC §13).
const FileName = "trust.json"

// Entry is one trusted project: its root and the sha256 of the values
// from its layers that charter runs or that steer the hook (see
// gates.TrustKeys), as they were when the user trusted them.
type Entry struct {
	Root   string `json:"root"`
	SHA256 string `json:"sha256"`
	// Owner is the uid of a project owned by another user that the user
	// accepted by trusting it; absent for the user's own projects.
	Owner   *int      `json:"owner,omitempty"`
	Trusted time.Time `json:"trusted"`
}

type file struct {
	Version  int     `json:"version"`
	Projects []Entry `json:"projects"`
}

// Path is user-global, like the dismissals: a trust survives profile
// switches and host-supplied roots, and a host root cannot bring its own.
func Path(s *core.System) (string, error) {
	root, err := profile.DefaultRoot(s)
	if err != nil {
		return "", err
	}
	return s.Paths.Join(root, FileName), nil
}

// parseTrust reads trust.json's bytes (nil or empty: no entry). A file
// charter cannot read is an error naming it; it is never overwritten.
func parseTrust(path string, data []byte) ([]Entry, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var f file
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&f); err != nil {
		return nil, fmt.Errorf("read %s: not the trust file charter writes (%v): fix or remove it, then trust your projects again", path, err)
	}
	if f.Version != 1 {
		return nil, fmt.Errorf("read %s: version %d is not one this charter knows (1): update charter, or remove the file and trust your projects again", path, f.Version)
	}
	for _, e := range f.Projects {
		if e.Root == "" || len(e.SHA256) != 64 {
			return nil, fmt.Errorf("read %s: an entry without a root or a sha256: fix or remove the file, then trust your projects again", path)
		}
	}
	return f.Projects, nil
}

// Entries lists the trusted projects, sorted by root. A trust file
// charter does not believe (FileProblem) lists none: every project is
// untrusted until the user fixes it, and nothing that reads trust fails.
func Entries(s *core.System) ([]Entry, error) {
	es, _, err := read(s)
	return es, err
}

// FileProblem is why charter does not believe trust.json, nil when it
// does (or when there is none). doctor shows it with its fix.
func FileProblem(s *core.System) *FileError {
	_, bad, _ := read(s)
	return bad
}

// read reads trust.json as every file charter did not write is read
// (fsys: regular files only, opened without blocking, capped), and
// believes it only when the user owns it and nobody else may write it.
// bad says why not; err is a file that is not the trust file at all.
func read(s *core.System) (es []Entry, bad *FileError, err error) {
	path, err := Path(s)
	if err != nil {
		return nil, nil, err
	}
	f, err := s.OpenFile(path, fsys.KindState)
	if fsys.IsAbsent(err) {
		return []Entry{}, dangling(s, path), nil
	}
	if err != nil {
		return []Entry{}, unreadable(path, err), nil
	}
	defer f.Close()
	data, bad, err := believe(s, path, f)
	if bad != nil || err != nil {
		return []Entry{}, bad, err
	}
	es, err = parseTrust(path, data)
	if es == nil && err == nil {
		es = []Entry{}
	}
	return es, nil, err
}

// believe reads the opened trust file when what fstat says of it
// lets charter believe it.
func believe(s *core.System, path string, f afero.File) ([]byte, *FileError, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, unreadable(path, err), nil
	}
	if bad := unsafeFile(s, path, fi); bad != nil {
		return nil, bad, nil
	}
	data, err := fsys.ReadAll(f, path, fsys.KindState)
	if err != nil {
		return nil, unreadable(path, err), nil
	}
	return data, nil, nil
}

// EntryFor is the entry of the project rooted at root, nil when the
// project was never trusted (or was revoked).
func EntryFor(s *core.System, root string) (*Entry, error) {
	es, err := Entries(s)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		if s.Paths.EqualName(e.Root, root) {
			return &e, nil
		}
	}
	return nil, nil
}

// Record writes e, replacing the entry of the same root, under the
// file's lock (0600, atomic; a malformed file is left as it is).
func Record(s *core.System, e Entry, confirmShared bool) error {
	return update(s, confirmShared, func(es []Entry) ([]Entry, bool) {
		es = slices.DeleteFunc(es, func(o Entry) bool { return s.Paths.EqualName(o.Root, e.Root) })
		return append(es, e), true
	})
}

// Revoke removes the entry of root and reports whether there was one.
func Revoke(s *core.System, root string, confirmShared bool) (bool, error) {
	found := false
	err := update(s, confirmShared, func(es []Entry) ([]Entry, bool) {
		n := len(es)
		es = slices.DeleteFunc(es, func(o Entry) bool { return s.Paths.EqualName(o.Root, root) })
		found = len(es) < n
		return es, found
	})
	return found, err
}

func update(s *core.System, confirmShared bool, change func([]Entry) ([]Entry, bool)) error {
	path, err := Path(s)
	if err != nil {
		return err
	}
	o := fsys.WriteOptions{ConfirmShared: confirmShared, Owned: true, Kind: fsys.KindState}
	return s.UpdateFileStream(path, o, func(f afero.File) (func(io.Writer) error, error) {
		var old []byte
		if f != nil {
			// Entries someone else could have written are not carried
			// into a file the user owns: the user fixes the file first.
			data, bad, err := believe(s, path, f)
			switch {
			case bad != nil:
				return nil, bad
			case err != nil:
				return nil, err
			}
			old = data
		}
		es, err := parseTrust(path, old)
		if err != nil {
			return nil, err
		}
		es, changed := change(es)
		if !changed {
			return nil, nil
		}
		if es == nil {
			es = []Entry{}
		}
		slices.SortFunc(es, func(a, b Entry) int { return strings.Compare(a.Root, b.Root) })
		data, err := json.MarshalIndent(file{Version: 1, Projects: es}, "", "  ")
		if err != nil {
			return nil, err
		}
		data = append(data, '\n')
		return func(w io.Writer) error { _, err := w.Write(data); return err }, nil
	})
}
