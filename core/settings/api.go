package settings

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
)

// Dec is a decimal kept as its canonical text (12.50 → 12.5, 0.1 stays 0.1)
// so that no float ever rounds a setting. In JSON it is a number written
// from that exact text.
type Dec string

func (d Dec) MarshalJSON() ([]byte, error) { return []byte(d), nil }
func (d Dec) String() string               { return string(d) }

// Snapshot is the effective settings of one scope.
type Snapshot struct {
	Scope   core.Scope
	Values  map[string]any    // every schema key: bool, int64, Dec, string or []string
	Origins map[string]string // "default" or the file the value came from
	Unknown []string          // dotted keys in the files that the schema does not know
	ETag    string            // quoted; changes whenever any layer file or the policy changes
	Layers  []LayerInfo       // all six layers, lowest first
	Locks   map[string]Lock   // what the policy does, by key
	Project *core.Project     // the project whose layers were read; nil for none
	// BelowProject holds, for each key whose value comes from a project
	// layer, the value the layers below give (policy applied): what an
	// untrusted project runs with (see gates.TrustKeys).
	BelowProject map[string]any
	// Gov is what agents may do and which MCP servers they get, added up
	// over the layers with the policy's locks (SPEC §14).
	Gov *Governance
}

// LayerInfo is one layer in GET /api/v1/settings and `settings list --json`.
type LayerInfo struct {
	Name   string  `json:"name"`   // default, global, scope, project, projectLocal or policy
	Path   *string `json:"path"`   // null where the layer has no file in this run
	Exists bool    `json:"exists"` // the file exists (default: always)
	// ETag is the layer file's own ETag, the If-Match of a PATCH that
	// writes this layer; empty for default and policy.
	ETag string `json:"etag,omitempty"`
}

// Lock is what the policy does to one key: locks it to Value, or bounds it.
type Lock struct {
	Locked  bool   `json:"locked"`
	Value   any    `json:"value"`   // the lock; null when the key is only bounded
	Minimum any    `json:"minimum"` // null when none
	Maximum any    `json:"maximum"` // null when none
	Reason  string `json:"reason"`  // in words, naming the policy file
	Policy  string `json:"policy"`  // the policy file
}

// Doc is the JSON form of a snapshot: `charter settings list --json` and
// GET /api/v1/settings print the same document.
type Doc struct {
	Scope         core.Scope        `json:"scope"`
	Path          string            `json:"path"`   // the scope's settings file, where writes go
	Values        map[string]any    `json:"values"` // nested by section
	Origins       map[string]string `json:"origins"`
	Unknown       []string          `json:"unknown"`
	SchemaVersion int               `json:"schemaVersion"`
	Layer         string            `json:"layer"`  // the layer writes go to (Path is its file)
	Layers        []LayerInfo       `json:"layers"` // all six, lowest first
	Locks         map[string]Lock   `json:"locks"`  // the policy's rules, by key
}

// Doc returns a snapshot of this store as a document; unknown is never null.
func (st *Store) Doc(s *Snapshot) Doc {
	unknown := s.Unknown
	if unknown == nil {
		unknown = []string{}
	}
	return Doc{Scope: s.Scope, Path: st.Path(), Values: s.Nested(), Origins: s.Origins, Unknown: unknown, SchemaVersion: SchemaVersion,
		Layer: st.target, Layers: s.Layers, Locks: s.Locks}
}

// Update is one write: keys to set and keys to remove from the scope file.
type Update struct {
	Set           map[string]any // values already parsed by ParseText or ParseJSON
	Unset         []string
	ConfirmShared bool // write through a link the companion shares
	// IfMatch, when not empty, is an If-Match value: an ETag or a list of
	// them (RFC 9110 §13.1.1). The write happens only if one of them is
	// the current one (strong comparison: a weak tag never matches).
	IfMatch string
	// IfNoneMatch, when not empty, is an If-None-Match value: "*" or
	// ETags. The write happens only if none of them is current (weak
	// comparison, RFC 9110 §13.1.2); "*" always refuses, since the
	// settings always exist.
	IfNoneMatch string
	// Base, when not nil, is the per-key precondition (SPEC §8): the
	// value each key had when the client read it. The write happens only
	// if every such key still has that effective value, so writers of
	// different keys never conflict. Values as ParseJSON/ParseText return.
	Base map[string]any
}

// Problem is what is wrong with one key of an update.
type Problem struct {
	Key     string `json:"key"`
	Code    string `json:"code"` // unknown_key, invalid_value or scalar_parent
	Message string `json:"message"`
}

// unknownKey is the problem of a key the schema does not have.
func unknownKey(key string) Problem {
	return Problem{Key: key, Code: core.CodeUnknownKey, Message: UnknownKeyMessage(key)}
}

// Patch turns an edit as a skin received it (raw values by key, keys to
// remove) into an Update. parse reads one raw value: ParseText for the
// command line, ParseJSON for the HTTP API. Every bad key is reported at
// once, sorted by key, in one *ValidationError; any other error stops it.
func Patch[R any](set map[string]R, unset []string, parse func(key string, raw R) (any, error)) (Update, error) {
	u := Update{Set: make(map[string]any, len(set)), Unset: unset}
	var problems []Problem
	for key, raw := range set {
		v, err := parse(key, raw)
		var ve *ValidationError
		switch {
		case err == nil:
			u.Set[key] = v
		case errors.As(err, &ve):
			problems = append(problems, ve.Problems...)
		default:
			return Update{}, err
		}
	}
	for _, key := range unset {
		if _, ok := Lookup(key); !ok {
			problems = append(problems, unknownKey(key))
		}
	}
	if len(problems) > 0 {
		slices.SortStableFunc(problems, func(a, b Problem) int { return strings.Compare(a.Key, b.Key) })
		return Update{}, &ValidationError{Problems: problems}
	}
	return u, nil
}

// Known returns the schema key of that name, or a *ValidationError naming
// the unknown key and the likely one.
func Known(name string) (Key, error) { return known(name) }

// ValidationError lists every bad key of an update; nothing was written.
type ValidationError struct{ Problems []Problem }

// Code is the problems' code when they all share one (unknown_key,
// scalar_parent), else invalid_value.
func (e *ValidationError) Code() string {
	for _, p := range e.Problems {
		if p.Code != e.Problems[0].Code {
			return core.CodeInvalidValue
		}
	}
	if len(e.Problems) == 0 {
		return core.CodeInvalidValue
	}
	return e.Problems[0].Code
}

// Extras lists every problem for JSON error bodies.
func (e *ValidationError) Extras() map[string]any { return map[string]any{"problems": e.Problems} }

func (e *ValidationError) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Message
	}
	return strings.Join(msgs, "; ")
}

// ConflictError is a write whose per-key base no longer holds: another
// write changed those keys since the client read them. Nothing was written.
type ConflictError struct {
	Keys    []string // sorted
	Current string   // the current ETag
	Doc     *Doc     // the current document; nil when the files cannot be read
}

func (e *ConflictError) Code() string { return core.CodeStaleETag }

// Extras carries the conflicting keys and the current state, so a client
// can show what changed and retry.
func (e *ConflictError) Extras() map[string]any {
	x := map[string]any{"currentEtag": e.Current, "conflicts": e.Keys}
	if e.Doc != nil {
		x["current"] = e.Doc
	}
	return x
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s changed since the settings were read: read them again and retry", strings.Join(e.Keys, ", "))
}

// StaleError is a write whose If-Match no longer matches; nothing was written.
type StaleError struct {
	Current   string
	NoneMatch bool // the request's If-None-Match named the current version
}

func (e *StaleError) Code() string { return core.CodeStaleETag }

// Extras carries the current ETag, so a client can re-read and retry.
func (e *StaleError) Extras() map[string]any { return map[string]any{"currentEtag": e.Current} }

func (e *StaleError) Error() string {
	if e.NoneMatch {
		return fmt.Sprintf("the settings are at a version If-None-Match names (current ETag %s), so nothing was written: send If-Match with the ETag you read instead", e.Current)
	}
	return fmt.Sprintf("settings changed since they were read (current ETag %s): read them again and retry", e.Current)
}
