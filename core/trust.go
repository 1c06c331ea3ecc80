package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/fsys"
)

// TrustFileName is the user-global record of trusted projects (SPEC §13).
const TrustFileName = "trust.json"

// TrustEntry is one trusted project: its root and the sha256 of the values
// from its layers that charter runs or that steer the hook (see
// gates.TrustKeys), as they were when the user trusted them.
type TrustEntry struct {
	Root   string `json:"root"`
	SHA256 string `json:"sha256"`
	// Owner is the uid of a project owned by another user that the user
	// accepted by trusting it; absent for the user's own projects.
	Owner   *int      `json:"owner,omitempty"`
	Trusted time.Time `json:"trusted"`
}

type trustFile struct {
	Version  int          `json:"version"`
	Projects []TrustEntry `json:"projects"`
}

// TrustPath is user-global, like the dismissals: a trust survives profile
// switches and host-supplied roots, and a host root cannot bring its own.
func (s *System) TrustPath() (string, error) {
	root, err := s.DefaultRoot()
	if err != nil {
		return "", err
	}
	return s.Paths.Join(root, TrustFileName), nil
}

// parseTrust reads trust.json's bytes (nil or empty: no entry). A file
// charter cannot read is an error naming it; it is never overwritten.
func parseTrust(path string, data []byte) ([]TrustEntry, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var f trustFile
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

// TrustEntries lists the trusted projects, sorted by root. A trust file
// charter does not believe (TrustFileProblem) lists none: every project is
// untrusted until the user fixes it, and nothing that reads trust fails.
func (s *System) TrustEntries() ([]TrustEntry, error) {
	es, _, err := s.readTrust()
	return es, err
}

// TrustFileProblem is why charter does not believe trust.json, nil when it
// does (or when there is none). doctor shows it with its fix.
func (s *System) TrustFileProblem() *TrustFileError {
	_, bad, _ := s.readTrust()
	return bad
}

// readTrust reads trust.json as every file charter did not write is read
// (fsys: regular files only, opened without blocking, capped), and
// believes it only when the user owns it and nobody else may write it.
// bad says why not; err is a file that is not the trust file at all.
func (s *System) readTrust() (es []TrustEntry, bad *TrustFileError, err error) {
	path, err := s.TrustPath()
	if err != nil {
		return nil, nil, err
	}
	f, err := s.OpenFile(path, fsys.KindState)
	if fsys.IsAbsent(err) {
		return []TrustEntry{}, s.danglingTrust(path), nil
	}
	if err != nil {
		return []TrustEntry{}, unreadableTrust(path, err), nil
	}
	defer f.Close()
	data, bad, err := s.believeTrust(path, f)
	if bad != nil || err != nil {
		return []TrustEntry{}, bad, err
	}
	es, err = parseTrust(path, data)
	if es == nil && err == nil {
		es = []TrustEntry{}
	}
	return es, nil, err
}

// believeTrust reads the opened trust file when what fstat says of it
// lets charter believe it.
func (s *System) believeTrust(path string, f afero.File) ([]byte, *TrustFileError, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, unreadableTrust(path, err), nil
	}
	if bad := s.unsafeTrust(path, fi); bad != nil {
		return nil, bad, nil
	}
	data, err := fsys.ReadAll(f, path, fsys.KindState)
	if err != nil {
		return nil, unreadableTrust(path, err), nil
	}
	return data, nil, nil
}

// TrustEntryFor is the entry of the project rooted at root, nil when the
// project was never trusted (or was revoked).
func (s *System) TrustEntryFor(root string) (*TrustEntry, error) {
	es, err := s.TrustEntries()
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

// RecordTrust writes e, replacing the entry of the same root, under the
// file's lock (0600, atomic; a malformed file is left as it is).
func (s *System) RecordTrust(e TrustEntry, confirmShared bool) error {
	return s.updateTrust(confirmShared, func(es []TrustEntry) ([]TrustEntry, bool) {
		es = slices.DeleteFunc(es, func(o TrustEntry) bool { return s.Paths.EqualName(o.Root, e.Root) })
		return append(es, e), true
	})
}

// RevokeTrust removes the entry of root and reports whether there was one.
func (s *System) RevokeTrust(root string, confirmShared bool) (bool, error) {
	found := false
	err := s.updateTrust(confirmShared, func(es []TrustEntry) ([]TrustEntry, bool) {
		n := len(es)
		es = slices.DeleteFunc(es, func(o TrustEntry) bool { return s.Paths.EqualName(o.Root, root) })
		found = len(es) < n
		return es, found
	})
	return found, err
}

func (s *System) updateTrust(confirmShared bool, change func([]TrustEntry) ([]TrustEntry, bool)) error {
	path, err := s.TrustPath()
	if err != nil {
		return err
	}
	o := fsys.WriteOptions{ConfirmShared: confirmShared, Owned: true, Kind: fsys.KindState}
	return s.UpdateFileStream(path, o, func(f afero.File) (func(io.Writer) error, error) {
		var old []byte
		if f != nil {
			// Entries someone else could have written are not carried
			// into a file the user owns: the user fixes the file first.
			data, bad, err := s.believeTrust(path, f)
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
			es = []TrustEntry{}
		}
		slices.SortFunc(es, func(a, b TrustEntry) int { return strings.Compare(a.Root, b.Root) })
		data, err := json.MarshalIndent(trustFile{Version: 1, Projects: es}, "", "  ")
		if err != nil {
			return nil, err
		}
		data = append(data, '\n')
		return func(w io.Writer) error { _, err := w.Write(data); return err }, nil
	})
}
