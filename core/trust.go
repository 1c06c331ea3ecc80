package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"time"
)

// TrustFileName is the user-global record of trusted projects (SPEC §13).
const TrustFileName = "trust.json"

// maxTrustFile bounds what is read of trust.json: a few hundred bytes per
// project.
const maxTrustFile = 4 << 20

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

// TrustEntries lists the trusted projects, sorted by root.
func (s *System) TrustEntries() ([]TrustEntry, error) {
	path, err := s.TrustPath()
	if err != nil {
		return nil, err
	}
	f, err := s.Fs.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return []TrustEntry{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("read %s: not a regular file: remove it, then trust your projects again", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTrustFile+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > maxTrustFile {
		return nil, Errorf(CodeTooLarge, "read %s: larger than %d bytes: fix or remove it, then trust your projects again", path, maxTrustFile)
	}
	es, err := parseTrust(path, data)
	if es == nil && err == nil {
		es = []TrustEntry{}
	}
	return es, err
}

// TrustEntryFor is the entry of the project rooted at root, nil when the
// project was never trusted (or was revoked).
func (s *System) TrustEntryFor(root string) (*TrustEntry, error) {
	es, err := s.TrustEntries()
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		if s.Paths.equalName(e.Root, root) {
			return &e, nil
		}
	}
	return nil, nil
}

// RecordTrust writes e, replacing the entry of the same root, under the
// file's lock (0600, atomic; a malformed file is left as it is).
func (s *System) RecordTrust(e TrustEntry, confirmShared bool) error {
	return s.updateTrust(confirmShared, func(es []TrustEntry) ([]TrustEntry, bool) {
		es = slices.DeleteFunc(es, func(o TrustEntry) bool { return s.Paths.equalName(o.Root, e.Root) })
		return append(es, e), true
	})
}

// RevokeTrust removes the entry of root and reports whether there was one.
func (s *System) RevokeTrust(root string, confirmShared bool) (bool, error) {
	found := false
	err := s.updateTrust(confirmShared, func(es []TrustEntry) ([]TrustEntry, bool) {
		n := len(es)
		es = slices.DeleteFunc(es, func(o TrustEntry) bool { return s.Paths.equalName(o.Root, root) })
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
	return s.UpdateFileOpts(path, WriteOptions{ConfirmShared: confirmShared, Owned: true}, func(old []byte) ([]byte, error) {
		if len(old) > maxTrustFile {
			return nil, Errorf(CodeTooLarge, "read %s: larger than %d bytes: fix or remove it, then trust your projects again", path, maxTrustFile)
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
		return append(data, '\n'), err
	})
}
