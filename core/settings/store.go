package settings

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/helpers/config"
	"github.com/agentkit/charter/helpers/objcopy"
)

// FileName is the settings file in a scope directory.
const FileName = "settings.yaml"

// OriginDefault marks a value that no file sets.
const OriginDefault = "default"

// MaxFileSize caps a settings file. A larger one is refused before it is
// parsed, on reads and writes alike: hand-written settings are a few KiB,
// while a write of a 1 MiB file already costs the YAML library about
// 450 MB of allocations (BenchmarkWriteLargeFile), and 4 MiB four times that.
const MaxFileSize = 1 << 20

// Store reads and writes the settings of one scope.
type Store struct {
	sys   *core.System
	scope core.Scope
}

// New returns the store of scope sc.
func New(sys *core.System, sc core.Scope) *Store { return &Store{sys: sys, scope: sc} }

// Path is the scope's settings file, the only file writes go to.
func (st *Store) Path() string { return st.sys.Paths.Join(st.scope.Path, FileName) }

// layers lists the files read, lowest first: the root's file sits under a
// profile's own only when the profile lives under the default root.
func (st *Store) layers() []string {
	if st.scope.Kind == core.ScopeProfile {
		return []string{st.sys.Paths.Join(st.scope.Root.Path, FileName), st.Path()}
	}
	return []string{st.Path()}
}

// Files lists every file Read reads, lowest layer first: a cache of the
// snapshot stays valid while none of them changes.
func (st *Store) Files() []string { return st.layers() }

// layer is one settings file, read and checked.
type layer struct {
	path     string
	data     []byte
	file     *yamlFile // nil when the file cannot be parsed
	leaves   []leaf
	values   []value // the valid settings the file sets, in file order
	unknown  []string
	problems []FileProblem
}

type value struct {
	key string
	v   any
}

// loadLayer parses and checks one file's bytes (nil: no file). Every
// problem is collected, so that a read reports them all at once.
func loadLayer(path string, data []byte) *layer {
	l := &layer{path: path, data: data}
	if len(data) > MaxFileSize {
		l.problems = []FileProblem{tooLarge(path, int64(len(data)))}
		return l
	}
	f, p := decodeFile(data)
	if p != nil {
		p.File = path
		l.problems = []FileProblem{*p}
		return l
	}
	l.file = f
	leaves, problems := flatten(f.doc)
	l.leaves = leaves
	for _, lf := range leaves {
		k, ok := Lookup(lf.key)
		if !ok {
			if !isPlaceholder(lf.value) || !isSection(lf.key) {
				l.unknown = append(l.unknown, lf.key)
			}
			continue
		}
		v, err := fromNode(k, lf.value)
		if err != nil {
			var ve *ValidationError
			msg := err.Error()
			if errors.As(err, &ve) && len(ve.Problems) > 0 {
				msg = ve.Problems[0].Message
			}
			problems = append(problems, FileProblem{Line: lf.keyNode.Line, Key: k.Name, Message: msg, repairable: true})
			continue
		}
		l.values = append(l.values, value{k.Name, v})
	}
	for i := range problems {
		problems[i].File = path
	}
	l.problems = problems
	return l
}

func tooLarge(path string, size int64) FileProblem {
	return FileProblem{File: path, Message: fmt.Sprintf("the file is %s, larger than the %d MiB charter reads: settings files are small, so look for what filled it and remove that",
		mib(size), MaxFileSize>>20)}
}

// mib rounds up, so that a file just over the cap never reads as "1.0 MiB".
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", math.Ceil(float64(n)*10/(1<<20))/10) }

// isSection: name is a section of the schema, such as rules or
// commands.suggestions.
func isSection(name string) bool {
	return slices.ContainsFunc(schema, func(k Key) bool { return strings.HasPrefix(k.Name, name+".") })
}

// readLayer reads one file, refusing one above MaxFileSize before reading it.
// A file below the scope's own cannot be repaired by this store's writes.
func (st *Store) readLayer(path string) (*layer, error) {
	l, err := st.readFile(path)
	if err != nil || path == st.Path() {
		return l, err
	}
	for i := range l.problems {
		l.problems[i].repairable = false
	}
	return l, nil
}

func (st *Store) readFile(path string) (*layer, error) {
	f, err := st.sys.Fs.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return loadLayer(path, nil), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > MaxFileSize {
		return &layer{path: path, problems: []FileProblem{tooLarge(path, fi.Size())}}, nil
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return loadLayer(path, data), nil
}

// Read returns the effective settings.
func (st *Store) Read() (*Snapshot, error) {
	ls := make([]*layer, 0, 2)
	for _, p := range st.layers() {
		l, err := st.readLayer(p)
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
	}
	return st.snapshot(ls)
}

// snapshot layers the files over the defaults; any problem in any file is
// an error that lists them all.
func (st *Store) snapshot(ls []*layer) (*Snapshot, error) {
	var problems []FileProblem
	for _, l := range ls {
		problems = append(problems, l.problems...)
	}
	if err := fileError(problems, st.layers()); err != nil {
		return nil, err
	}
	snap := &Snapshot{
		Scope:   st.scope,
		Values:  make(map[string]any, len(schema)),
		Origins: make(map[string]string, len(schema)),
		ETag:    etag(ls),
	}
	for _, k := range schema {
		def, err := objcopy.Copy(k.Default, true, objcopy.DefaultMaxLevel)
		if err != nil {
			return nil, fmt.Errorf("copy default of %s: %w", k.Name, err)
		}
		snap.Values[k.Name] = def // callers may change it; the schema's stays
		snap.Origins[k.Name] = OriginDefault
	}
	unknown := map[string]bool{}
	for _, l := range ls {
		for _, v := range l.values {
			snap.Values[v.key] = v.v
			snap.Origins[v.key] = l.path
		}
		for _, k := range l.unknown {
			unknown[k] = true
		}
	}
	for k := range unknown {
		snap.Unknown = append(snap.Unknown, k)
	}
	sort.Strings(snap.Unknown)
	return snap, nil
}

// Nested returns the values as nested maps, ready for JSON.
func (s *Snapshot) Nested() map[string]any {
	c := config.New(nil)
	for _, k := range schema {
		if err := c.Set(k.Name, s.Values[k.Name]); err != nil {
			panic(err) // schema keys are valid dot paths
		}
	}
	return c.All()
}

// Write applies u to the scope file: validate, check for a shared link,
// then under the file's lock check If-Match and replace the file
// atomically. Comments, key order and unknown keys survive. A file with
// problems is not rewritten, except when the write removes every one of
// them: setting or unsetting a key whose value is bad repairs it.
func (st *Store) Write(u Update) (*Snapshot, error) {
	var problems []Problem
	for _, key := range u.Unset {
		if _, ok := Lookup(key); !ok {
			problems = append(problems, unknownKey(key))
		}
	}
	for key, v := range u.Set {
		k, ok := Lookup(key)
		if !ok {
			problems = append(problems, unknownKey(key))
			continue
		}
		if err := k.check(v); err != nil {
			problems = append(problems, err.(*ValidationError).Problems...)
		}
	}
	for key := range u.Base {
		if _, ok := Lookup(key); !ok {
			problems = append(problems, unknownKey(key))
		}
	}
	if len(problems) > 0 {
		sort.Slice(problems, func(i, j int) bool { return problems[i].Key < problems[j].Key })
		return nil, &ValidationError{Problems: problems}
	}
	if u.Base != nil {
		var missing []string
		for _, key := range append(sortedKeys(u.Set), u.Unset...) {
			if _, ok := u.Base[key]; !ok {
				missing = append(missing, key)
			}
		}
		if len(missing) > 0 {
			return nil, core.Errorf(core.CodePreconditionRequired, "base has no value for %s: send in base the value read for every key set or unset", strings.Join(missing, ", "))
		}
	}

	path := st.Path()
	var snap *Snapshot
	err := st.sys.UpdateFileOpts(path, core.WriteOptions{ConfirmShared: u.ConfirmShared, Owned: true}, func(old []byte) ([]byte, error) {
		lower, err := st.lowerLayers()
		if err != nil {
			return nil, err
		}
		cur := loadLayer(path, old)
		if u.IfMatch != "" {
			if tag := etag(append(lower, cur)); tag != u.IfMatch {
				return nil, &StaleError{Current: tag}
			}
		}
		if u.Base != nil {
			if err := st.checkBase(u.Base, append(lower, cur)); err != nil {
				return nil, err
			}
		}
		// charter never rewrites a file it cannot read, nor one that would
		// keep a problem after this write. The refusal lists every problem,
		// so that none of them looks fixable on its own when it is not.
		all := slices.Clone(cur.problems)
		for _, l := range lower {
			all = append(all, l.problems...)
		}
		if slices.ContainsFunc(all, func(p FileProblem) bool { return !p.repairable || !u.writes(p.Key) }) {
			return nil, fileError(all, st.layers())
		}

		// Comments are the user's: an edit keeps every one but those on the
		// line of a key it removes or inside a value it replaces.
		keep := mustKeep(cur.file, old, dropsOf(cur.leaves, append(sortedKeys(u.Set), u.Unset...)))
		root := cur.file.root()
		for _, key := range sortedKeys(u.Set) {
			k, _ := Lookup(key)
			var owned *ownedValueError
			if err := setValue(root, "", k.segments(), toNode(u.Set[key])); errors.As(err, &owned) {
				problems = append(problems, scalarParent(path, key, owned))
			} else if err != nil {
				return nil, err
			}
		}
		if len(problems) > 0 {
			return nil, &ValidationError{Problems: problems}
		}
		for _, key := range u.Unset {
			k, _ := Lookup(key)
			unsetValue(root, k.segments())
		}
		data, err := cur.file.encode()
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", path, err)
		}
		next := loadLayer(path, data)
		if len(next.problems) > 0 {
			return nil, fmt.Errorf("charter could not edit %s safely (%s); nothing was written: make the change by hand", path, next.problems[0].Message)
		}
		if lost := keep.lostIn(next.file, data); len(lost) > 0 {
			return nil, lostComment(path, old, lost[0])
		}
		if snap, err = st.snapshot(append(lower, next)); err != nil {
			return nil, err
		}
		if bytes.Equal(data, old) {
			return nil, nil // nothing changed (or still nothing): keep the disk as it is
		}
		return data, nil
	})
	if err != nil {
		return nil, err
	}
	return snap, nil
}

// CodeScalarParent is a write refused because a value the user wrote sits
// where the key's section would have to go.
const CodeScalarParent = "scalar_parent"

func scalarParent(path, key string, e *ownedValueError) Problem {
	return Problem{Key: key, Code: CodeScalarParent, Message: fmt.Sprintf(
		"%s:%d: %s holds a value there, so %s cannot go inside it without losing that value: edit or remove line %d, then run the command again",
		path, e.Line, e.Parent, key, e.Line)}
}

// lostComment refuses an edit the YAML writer cannot make without dropping
// a comment (one in an odd place, such as between a key and its value).
func lostComment(path string, data []byte, comment string) error {
	line := 0
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, comment) {
			line = i + 1
			break
		}
	}
	return &FileError{Path: path, Problems: []FileProblem{{File: path, Line: line, Message: fmt.Sprintf(
		"charter cannot rewrite this file without losing the comment %q here: move it next to a key, on the line above it or at the end of its line", comment)}}}
}

// checkBase is the per-key precondition: each key of base must still have
// that effective value over ls (a key whose value in a file is bad counts
// as not having it, so the write goes on to be refused or repair it).
func (st *Store) checkBase(base map[string]any, ls []*layer) error {
	var conflicts []string
	for key, want := range base {
		if !sameValue(effective(key, ls), want) {
			conflicts = append(conflicts, key)
		}
	}
	if len(conflicts) == 0 {
		return nil
	}
	sort.Strings(conflicts)
	e := &ConflictError{Keys: conflicts, Current: etag(ls)}
	if snap, err := st.snapshot(ls); err == nil {
		doc := st.Doc(snap)
		e.Doc = &doc
	}
	return e
}

// effective is key's value over ls: the highest layer that sets it, else
// the default.
func effective(key string, ls []*layer) any {
	for i := len(ls) - 1; i >= 0; i-- {
		for j := len(ls[i].values) - 1; j >= 0; j-- {
			if v := ls[i].values[j]; v.key == key {
				return v.v
			}
		}
	}
	k, _ := Lookup(key)
	return k.Default
}

// writes reports whether the update sets or unsets key.
func (u Update) writes(key string) bool {
	_, set := u.Set[key]
	return set || slices.Contains(u.Unset, key)
}

// lowerLayers reads every layer below the scope file.
func (st *Store) lowerLayers() ([]*layer, error) {
	ps := st.layers()
	out := make([]*layer, 0, len(ps))
	for _, p := range ps[:len(ps)-1] {
		l, err := st.readLayer(p)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

func etag(ls []*layer) string {
	h := sha256.New()
	for _, l := range ls {
		fmt.Fprintf(h, "%d\n", len(l.data))
		h.Write(l.data)
	}
	return `"` + hex.EncodeToString(h.Sum(nil)[:12]) + `"`
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
