package settings

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
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
const MaxFileSize = 1 << 20 // fsys.KindSettings.Max()

// Layer names, lowest first, as the HTTP API spells them (SPEC §9).
const (
	LayerDefault      = "default"
	LayerGlobal       = "global"
	LayerScope        = "scope"
	LayerProject      = "project"
	LayerProjectLocal = "projectLocal"
	LayerPolicy       = "policy"
)

// LayerNames lists every layer, lowest first.
func LayerNames() []string {
	return []string{LayerDefault, LayerGlobal, LayerScope, LayerProject, LayerProjectLocal, LayerPolicy}
}

// WritableLayers are the layers a write may target; scope is the default.
func WritableLayers() []string { return []string{LayerScope, LayerProject, LayerProjectLocal} }

// Store reads and writes the settings of one scope, with the project and
// policy layers when it was opened with them.
type Store struct {
	sys     *core.System
	scope   core.Scope
	project *core.Project // nil: no project layers
	policy  *Policy       // nil: no policy
	target  string        // the layer writes go to
	header  []byte        // what a file this store creates starts with (WithHeader)
}

// New returns the store of scope sc alone: no project, no policy.
func New(sys *core.System, sc core.Scope) *Store {
	return &Store{sys: sys, scope: sc, target: LayerScope}
}

// Open returns the layered store: scope sc, the project (nil for none) and
// the policy (nil for none). Writes go to the scope file until Target
// chooses another layer.
func Open(sys *core.System, sc core.Scope, project *core.Project, policy *Policy) *Store {
	return &Store{sys: sys, scope: sc, project: project, policy: policy, target: LayerScope}
}

// Project is the project the store reads, nil when none.
func (st *Store) Project() *core.Project { return st.project }

// Policy is the policy the store applies, nil when none.
func (st *Store) Policy() *Policy { return st.policy }

// Target returns a store that writes to layer (scope, project or
// projectLocal). The project layers need a project.
func (st *Store) Target(layer string) (*Store, error) {
	switch layer {
	case "", LayerScope:
		layer = LayerScope
	case LayerProject, LayerProjectLocal:
		if st.project == nil {
			return nil, core.Errorf(core.CodeUsage, "there is no project to write to: create one with `charter settings set KEY VALUE --project` inside a git repository, or give --project-dir DIR")
		}
	default:
		return nil, core.Errorf(core.CodeInvalidRequest, "unknown layer %q: use one of %s", layer, strings.Join(WritableLayers(), ", "))
	}
	c := *st
	c.target = layer
	return &c, nil
}

// WriteOptions are the options of every write of the target layer's file,
// the store's own and `settings edit`'s alike, so the two never differ: the
// scope file is charter's own under the config root (0600 after every
// write, whatever mode an older file had), a project file the team's (a
// new one ProjectFileMode, an existing one keeps its mode).
func (st *Store) WriteOptions(confirmShared bool) core.WriteOptions {
	if st.target == LayerScope {
		return core.WriteOptions{ConfirmShared: confirmShared, Owned: true}
	}
	return core.WriteOptions{ConfirmShared: confirmShared, NewMode: ProjectFileMode, Within: st.project.Dir}
}

// within is the project root a layer file must resolve inside: a project
// file is the repository's, and a link in it may not lead out (code
// outside_project). "" for the user's own files.
func (st *Store) within(path string) string {
	if st.project != nil && (path == st.project.SettingsPath() || path == st.project.LocalPath()) {
		return st.project.Dir
	}
	return ""
}

// WithHeader returns a store whose writes start a file they create with
// header (the schema comment of a new scope file); a file that exists is
// never given one.
func (st *Store) WithHeader(header string) *Store {
	c := *st
	c.header = []byte(header)
	return &c
}

// TargetLayer names the layer writes go to.
func (st *Store) TargetLayer() string { return st.target }

// Path is the file writes go to: the scope file unless Target chose a
// project layer.
func (st *Store) Path() string {
	switch st.target {
	case LayerProject:
		return st.project.SettingsPath()
	case LayerProjectLocal:
		return st.project.LocalPath()
	}
	return st.ScopePath()
}

// ScopePath is the scope's settings file.
func (st *Store) ScopePath() string { return st.sys.Paths.Join(st.scope.Path, FileName) }

// globalPath is the root's file, read under a profile's own only when the
// profile lives under the default root; "" otherwise.
func (st *Store) globalPath() string {
	if st.scope.Kind == core.ScopeProfile {
		return st.sys.Paths.Join(st.scope.Root.Path, FileName)
	}
	return ""
}

// fileLayer is one layer that has a file in this store.
type fileLayer struct{ name, path string }

// fileLayers lists the layer files read, lowest first.
func (st *Store) fileLayers() []fileLayer {
	ls := make([]fileLayer, 0, 4)
	if g := st.globalPath(); g != "" {
		ls = append(ls, fileLayer{LayerGlobal, g})
	}
	ls = append(ls, fileLayer{LayerScope, st.ScopePath()})
	if st.project != nil {
		ls = append(ls, fileLayer{LayerProject, st.project.SettingsPath()}, fileLayer{LayerProjectLocal, st.project.LocalPath()})
	}
	return ls
}

// layers lists the files read, lowest first.
func (st *Store) layers() []string {
	fl := st.fileLayers()
	out := make([]string, len(fl))
	for i, l := range fl {
		out[i] = l.path
	}
	return out
}

// LayerOf names the layer an origin belongs to: default, policy or the
// layer whose file it is ("" for none of them).
func (st *Store) LayerOf(origin string) string {
	if origin == OriginDefault {
		return LayerDefault
	}
	if st.policy != nil && origin == st.policy.Path {
		return LayerPolicy
	}
	for _, l := range st.fileLayers() {
		if l.path == origin {
			return l.name
		}
	}
	return ""
}

// Files lists every file Read reads, lowest layer first: a cache of the
// snapshot stays valid while none of them changes.
func (st *Store) Files() []string { return st.layers() }

// layer is one settings file, read and checked.
type layer struct {
	path     string
	exists   bool
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
	return index().sections[name]
}

// readLayer reads one file, refusing one above MaxFileSize before reading it.
// Only the file writes go to can be repaired by this store's writes.
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
	// A project file is read only inside the project (ReadWithin): a
	// committed link out of it is refused, naming the link.
	data, err := st.sys.ReadWithin(st.within(path), path, fsys.KindSettings)
	var tl *fsys.TooLargeError
	switch {
	case errors.As(err, &tl):
		size := tl.Size
		if size == 0 {
			size = MaxFileSize + 1
		}
		return &layer{path: path, exists: true, problems: []FileProblem{tooLarge(path, size)}}, nil
	case err != nil:
		return nil, err // ReadWithin names the path
	case data == nil:
		return loadLayer(path, nil), nil
	}
	l := loadLayer(path, data)
	l.exists = true
	return l, nil
}

// Read returns the effective settings.
func (st *Store) Read() (*Snapshot, error) {
	ps := st.layers()
	ls := make([]*layer, 0, len(ps))
	for _, p := range ps {
		l, err := st.readLayer(p)
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
	}
	return st.snapshot(ls)
}

// snapshot layers the files (one per st.layers(), in that order) over the
// defaults and puts the policy on top; any problem in any file is an error
// that lists them all.
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
		ETag:    st.etag(ls),
		Layers:  st.layerInfo(ls),
		Locks:   st.locks(),
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
	below := map[string]any{}
	fls := st.fileLayers()
	for i, l := range ls {
		project := fls[i].name == LayerProject || fls[i].name == LayerProjectLocal
		for _, v := range l.values {
			if project {
				if _, seen := below[v.key]; !seen {
					below[v.key] = snap.Values[v.key]
				}
			}
			snap.Values[v.key] = v.v
			snap.Origins[v.key] = l.path
		}
		for _, k := range l.unknown {
			unknown[k] = true
		}
	}
	for _, key := range st.policy.Keys() {
		if v, by := st.policy.Apply(key, snap.Values[key]); by {
			snap.Values[key], snap.Origins[key] = v, st.policy.Path
		}
	}
	snap.Project = st.project
	for key, v := range below {
		if l := st.LayerOf(snap.Origins[key]); l != LayerProject && l != LayerProjectLocal {
			continue // the policy decided it
		}
		if pv, by := st.policy.Apply(key, v); by {
			v = pv
		}
		if snap.BelowProject == nil {
			snap.BelowProject = map[string]any{}
		}
		snap.BelowProject[key] = v
	}
	for k := range unknown {
		snap.Unknown = append(snap.Unknown, k)
	}
	sort.Strings(snap.Unknown)
	return snap, nil
}

// layerInfo describes all six layers, in order; ls holds the files read.
func (st *Store) layerInfo(ls []*layer) []LayerInfo {
	byName := map[string]*layer{}
	for i, fl := range st.fileLayers() {
		byName[fl.name] = ls[i]
	}
	out := make([]LayerInfo, 0, 6)
	for _, name := range LayerNames() {
		info := LayerInfo{Name: name}
		switch name {
		case LayerDefault:
			info.Exists = true
		case LayerPolicy:
			if st.policy != nil {
				info.Path, info.Exists = &st.policy.Path, true
			} else if p, err := PolicyPath(st.sys); err == nil {
				info.Path = &p
			}
		default:
			if l := byName[name]; l != nil {
				path := l.path
				info.Path, info.Exists = &path, l.exists
				info.ETag = etag([]*layer{l})
			} else if name == LayerProject || name == LayerProjectLocal {
				info.Path = nil // no project in this run
			}
		}
		out = append(out, info)
	}
	return out
}

// locks lists what the policy does to each key it names.
func (st *Store) locks() map[string]Lock {
	keys := st.policy.Keys()
	if len(keys) == 0 {
		return map[string]Lock{}
	}
	out := make(map[string]Lock, len(keys))
	for _, key := range keys {
		lk := Lock{Reason: st.policy.Reason(key), Policy: st.policy.Path}
		lk.Value, lk.Locked = st.policy.Locked(key)
		lk.Minimum, lk.Maximum = st.policy.Bounds(key)
		out[key] = lk
	}
	return out
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
	r := st.WriteAll([]Update{u})[0]
	return r.Snapshot, r.Err
}

// Result is one update's outcome in WriteAll.
type Result struct {
	Snapshot *Snapshot // the settings right after this update
	Err      error
}

// WriteAll applies updates as Write applies each, in order, each checked
// against the file as the ones before it left it, and writes the file once
// for all of them (once per ConfirmShared value): the outcome is that of
// the updates written one after the other, at the cost of one write. An
// update that fails leaves the file as it was for the next one; when the
// write itself fails, every update that was in it fails with it.
func (st *Store) WriteAll(us []Update) []Result {
	res := make([]Result, len(us))
	var groups [2][]int // by ConfirmShared: the two take different checks
	for i, u := range us {
		if err := st.precheck(u); err != nil {
			res[i].Err = err
			continue
		}
		c := 0
		if u.ConfirmShared {
			c = 1
		}
		groups[c] = append(groups[c], i)
	}
	for c, idx := range groups {
		if len(idx) > 0 {
			st.writeGroup(us, idx, c == 1, res)
		}
	}
	return res
}

// precheck is what an update is refused for before any file is read.
func (st *Store) precheck(u Update) error {
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
		return &ValidationError{Problems: problems}
	}
	if u.Base != nil {
		var missing []string
		for _, key := range append(sortedKeys(u.Set), u.Unset...) {
			if _, ok := u.Base[key]; !ok {
				missing = append(missing, key)
			}
		}
		if len(missing) > 0 {
			return core.Errorf(core.CodePreconditionRequired, "base has no value for %s: send in base the value read for every key set or unset", strings.Join(missing, ", "))
		}
	}

	// The policy wins at every layer: refuse before anything is touched.
	if err := st.policy.CheckSet(u.Set); err != nil {
		return err
	}
	return checkPolicyItems(st.sys, u.Set, nil)

}

// writeGroup runs the updates us[idx] under one lock and one write.
func (st *Store) writeGroup(us []Update, idx []int, confirm bool, res []Result) {
	path := st.Path()
	opts := st.WriteOptions(confirm)
	var created bool
	var applied []int // updates whose outcome depends on the write
	err := st.sys.UpdateFileOpts(path, opts, func(old []byte) ([]byte, error) {
		ls, at, err := st.otherLayers()
		if err != nil {
			return nil, err
		}
		var data []byte
		data, applied = st.applyGroup(path, ls, at, old, old != nil, us, idx, res)
		if old == nil && data != nil && len(st.header) > 0 {
			// The file is created: the updates that passed run again on
			// the header, so that every snapshot (and ETag) is that of the
			// file written. Their If-Match held against the missing file.
			again := slices.Clone(us)
			for _, i := range applied {
				again[i].IfMatch = ""
			}
			data, applied = st.applyGroup(path, ls, at, st.header, false, again, applied, res)
		}
		if data == nil || bytes.Equal(data, old) {
			return nil, nil // nothing changed (or still nothing): keep the disk as it is
		}
		created = old == nil
		return data, nil
	})
	if err != nil {
		for _, i := range applied {
			res[i] = Result{Err: err}
		}
		if len(applied) == 0 {
			for _, i := range idx {
				if res[i].Err == nil {
					res[i].Err = err
				}
			}
		}
		return
	}
	if created && st.target == LayerProjectLocal {
		if err := st.ignoreLocal(confirm); err != nil {
			for _, i := range applied {
				res[i] = Result{Err: fmt.Errorf("%s was written, but %w", path, err)}
			}
		}
	}
}

// applyGroup applies us[idx] one after the other to the file's text start
// (exists: whether the file is there) and sets each one's result. It
// returns the text after them (nil when nothing changed a missing file)
// and the updates applied.
func (st *Store) applyGroup(path string, ls []*layer, at int, start []byte, exists bool, us []Update, idx []int, res []Result) ([]byte, []int) {
	var applied []int
	cur := loadLayer(path, start)
	cur.exists = exists
	data := start
	for _, i := range idx {
		next, snap, err := st.apply(path, ls, at, cur, data, us[i])
		if err != nil {
			res[i] = Result{Err: err}
			// A failed edit may have left the tree half changed.
			cur = loadLayer(path, data)
			cur.exists = exists
			continue
		}
		res[i] = Result{Snapshot: snap}
		applied = append(applied, i)
		cur, data = next, next.data
		exists = exists || next.exists
	}
	if !exists {
		return nil, applied
	}
	return data, applied
}

// apply checks u against cur, the file as it stands (its text is data),
// and edits it. ls are the layers, cur's place at. next is the edited
// layer (its text may be data itself); snap the settings after u.
func (st *Store) apply(path string, ls []*layer, at int, cur *layer, data []byte, u Update) (next *layer, snap *Snapshot, err error) {
	ls = slices.Clone(ls)
	ls[at] = cur
	if u.IfMatch != "" {
		if tag, whole := etag([]*layer{cur}), st.etag(ls); u.IfMatch != tag && u.IfMatch != whole {
			return nil, nil, &StaleError{Current: tag}
		}
	}
	if u.Base != nil {
		if err := st.checkBase(u.Base, ls); err != nil {
			return nil, nil, err
		}
	}
	// charter never rewrites a file it cannot read, nor one that would
	// keep a problem after this write. The refusal lists every problem,
	// so that none of them looks fixable on its own when it is not.
	all := slices.Clone(cur.problems)
	for i, l := range ls {
		if i != at {
			all = append(all, l.problems...)
		}
	}
	if slices.ContainsFunc(all, func(p FileProblem) bool { return !p.repairable || !u.writes(p.Key) }) {
		return nil, nil, fileError(all, st.layers())
	}
	out, next, err := edit(path, cur, data, u)
	if err != nil {
		return nil, nil, err
	}
	ls[at] = next
	if snap, err = st.snapshot(ls); err != nil {
		return nil, nil, err
	}
	if bytes.Equal(out, data) {
		next.data, next.exists = data, cur.exists // unchanged: a missing file stays missing
	}
	return next, snap, nil
}

// edit applies u to cur, the layer read from old, and returns the new text
// and its layer: in place when every key set holds a one-line value (see
// inplace.go), else by rewriting the tree, refused when that would lose a
// comment.
func edit(path string, cur *layer, old []byte, u Update) ([]byte, *layer, error) {
	if spans, ok := inPlaceSpans(cur.file, cur.leaves, old, u); ok {
		if err := setValues(path, cur.file.root(), u); err != nil {
			return nil, nil, err
		}
		data := splice(old, spans)
		if next := loadLayer(path, data); len(next.problems) == 0 && sameTree(next.file.doc, cur.file.doc) {
			next.exists = true
			return data, next, nil
		}
		cur = loadLayer(path, old) // the tree was edited: start again from the text
	}
	// Comments are the user's: an edit keeps every one but those on the
	// line of a key it removes or inside a value it replaces.
	keep := mustKeep(cur.file, old, dropsOf(cur.leaves, append(sortedKeys(u.Set), u.Unset...)))
	root := cur.file.root()
	if err := setValues(path, root, u); err != nil {
		return nil, nil, err
	}
	for _, key := range u.Unset {
		k, _ := Lookup(key)
		unsetValue(root, k.segments())
	}
	data, err := cur.file.encode()
	if err != nil {
		return nil, nil, fmt.Errorf("encode %s: %w", path, err)
	}
	next := loadLayer(path, data)
	if len(next.problems) > 0 {
		return nil, nil, fmt.Errorf("charter could not edit %s safely (%s); nothing was written: make the change by hand", path, next.problems[0].Message)
	}
	if lost := keep.lostIn(next.file, data); len(lost) > 0 {
		return nil, nil, lostComment(path, old, lost[0])
	}
	next.exists = true
	return data, next, nil
}

// setValues puts every value of u.Set into the tree under root; a value
// the user wrote in the way of a key is a problem for that key.
func setValues(path string, root *yaml.Node, u Update) error {
	var problems []Problem
	for _, key := range sortedKeys(u.Set) {
		k, _ := Lookup(key)
		var owned *ownedValueError
		if err := setValue(root, "", k.segments(), toNode(u.Set[key])); errors.As(err, &owned) {
			problems = append(problems, scalarParent(path, key, owned))
		} else if err != nil {
			return err
		}
	}
	if len(problems) > 0 {
		return &ValidationError{Problems: problems}
	}
	return nil
}

// ProjectFileMode is the mode of a new file in a project (less the umask):
// project files are the team's, read by everyone who checks it out.
const ProjectFileMode = 0o644

// ignoreLocal makes sure .charter/.gitignore lists the project-local file,
// so that a personal override is never committed by accident.
func (st *Store) ignoreLocal(confirm bool) error {
	p := st.sys.Paths.Join(st.project.Dir, core.ProjectDirName, ".gitignore")
	err := st.sys.UpdateFileOpts(p, core.WriteOptions{ConfirmShared: confirm, NewMode: ProjectFileMode, Within: st.project.Dir}, func(old []byte) ([]byte, error) {
		for _, line := range strings.Split(string(old), "\n") {
			switch strings.TrimSpace(line) {
			case core.ProjectLocalFile, "/" + core.ProjectLocalFile:
				return nil, nil // already ignored
			}
		}
		out := slices.Clone(old)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		return append(out, core.ProjectLocalFile+"\n"...), nil
	})
	if err != nil {
		return fmt.Errorf("listing it in %s failed: %w (add the line %s there yourself)", p, err, core.ProjectLocalFile)
	}
	return nil
}

func scalarParent(path, key string, e *ownedValueError) Problem {
	return Problem{Key: key, Code: core.CodeScalarParent, Message: fmt.Sprintf(
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

// otherLayers reads every layer file but the target's, whose slot (at) it
// leaves nil for the caller to fill.
func (st *Store) otherLayers() (ls []*layer, at int, err error) {
	ps := st.layers()
	ls, at = make([]*layer, len(ps)), -1
	target := st.Path()
	for i, p := range ps {
		if p == target && at < 0 {
			at = i
			continue
		}
		if ls[i], err = st.readLayer(p); err != nil {
			return nil, 0, err
		}
	}
	if at < 0 {
		return nil, 0, fmt.Errorf("write %s: not a layer of this store", target)
	}
	return ls, at, nil
}

// etag covers every layer file and the policy: any change to what the
// effective values are made of changes it.
func (st *Store) etag(ls []*layer) string {
	if st.policy == nil {
		return etag(ls)
	}
	return etag(append(slices.Clip(ls), &layer{data: append([]byte(st.policy.Path+"\n"), st.policy.data...)}))
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
