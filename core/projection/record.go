package projection

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// RecordVersion is the version of projection.lock / projection.json.
const RecordVersion = 1

// Record is what charter projected: every whole file, with its sha256.
// Project level it is committed (.charter/projection.lock): paths relative
// to the project root, sorted, no time stamps, so two people applying the
// same sources write the same record.
type Record struct {
	Version int        `json:"version"`
	Files   []Recorded `json:"files"`
	// Agents are the agents charter placed the project's block and rules
	// for, a served one included (apply's placement: it reads the others'
	// files and has none of its own), sorted; project level only.
	Agents []string `json:"agents,omitempty"`
}

// Recorded is one recorded file.
type Recorded struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Kind   string `json:"kind"`
	Item   string `json:"item"`
	Agent  string `json:"agent"`
}

// LockFile is the project record's path below the project root.
const LockFile = ".charter/projection.lock"

// StateFile is the user-level record's path below the scope.
const StateFile = "state/projection.json"

// Sum is data's sha256 in lowercase hex.
func Sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// Encode is the record as written: sorted by path, one file per line.
func (r Record) Encode() []byte {
	files := r.sorted()
	var b bytes.Buffer
	b.Grow(64 + 192*len(files))
	b.WriteString("{\"version\":1,\"files\":[")
	for i, e := range files {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		line, _ := json.Marshal(e) // strings only: cannot fail
		b.Write(line)
	}
	if len(files) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("]")
	if len(r.Agents) > 0 {
		agents, _ := json.Marshal(r.Agents) // strings only: cannot fail
		b.WriteString(",\"agents\":")
		b.Write(agents)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// Same reports whether r and o encode to the same bytes.
func (r Record) Same(o Record) bool {
	return slices.Equal(r.sorted(), o.sorted()) && slices.Equal(r.Agents, o.Agents)
}

func (r Record) sorted() []Recorded {
	files := slices.Clone(r.Files)
	slices.SortFunc(files, func(a, b Recorded) int { return strings.Compare(a.Path, b.Path) })
	return files
}

// ReadRecord reads a record; a missing one is empty. within is the project
// root for the committed lock (a repository's file: confined and capped).
func ReadRecord(sys *core.System, path, within string) (Record, error) {
	data, err := sys.ReadWithin(within, path, fsys.KindState)
	if err != nil {
		return Record{}, err
	}
	r := Record{Version: RecordVersion}
	if data == nil {
		return r, nil
	}
	if fast, ok := decodeRecord(data); ok {
		r = fast
	} else if err := json.Unmarshal(data, &r); err != nil || r.Version != RecordVersion {
		return Record{}, core.Errorf(core.CodeProjectionConflict,
			"%s is not a projection record charter can read (version 1): restore it from version control, or remove it and run `charter apply --force` to take the files over", path)
	}
	for _, e := range r.Files {
		if e.Path == "" || len(e.SHA256) != 64 {
			return Record{}, core.Errorf(core.CodeProjectionConflict,
				"%s: entry %q has no path or sha256: restore the file from version control, or remove it and run `charter apply --force`", path, e.Path)
		}
	}
	return r, nil
}

// index is the record by path.
func (r Record) index() map[string]Recorded {
	m := make(map[string]Recorded, len(r.Files))
	for _, e := range r.Files {
		m[e.Path] = e
	}
	return m
}

func (e Recorded) String() string { return fmt.Sprintf("%s (%s %s)", e.Path, e.Kind, e.Item) }
