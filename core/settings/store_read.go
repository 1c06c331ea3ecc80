package settings

// Reading the layers and merging them into one snapshot.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/helpers/config"
	"github.com/agentkit/charter/helpers/objcopy"
)

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
	servers  []Server // mcp.servers, read outside the schema (mcpservers.go)
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
	servers, sp := parseServers(serversNode(f.doc))
	l.servers, problems = servers, append(problems, sp...)
	for _, lf := range leaves {
		if isServerKey(lf.key) {
			continue
		}
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
		if v == nil {
			continue // a YAML null: not set in this file
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

// defaultCopy is k's default for a snapshot: a value no caller can change
// in place (a string, a bool, a number) is shared, anything else copied.
// Most defaults are scalars, and a copy by reflection is a start-up cost
// of every command that reads settings.
func defaultCopy(k Key) (any, error) {
	switch d := k.Default.(type) {
	case nil, string, bool, int64, Dec:
		return d, nil
	case []string:
		return slices.Clone(d), nil
	}
	def, err := objcopy.Copy(k.Default, true, objcopy.DefaultMaxLevel)
	if err != nil {
		return nil, fmt.Errorf("copy default of %s: %w", k.Name, err)
	}
	return def, nil
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
		Values:  make(map[string]any, len(schema())),
		Origins: make(map[string]string, len(schema())),
		ETag:    st.etag(ls),
		Layers:  st.layerInfo(ls),
		Locks:   st.locks(),
	}
	for _, k := range schema() {
		def, err := defaultCopy(k)
		if err != nil {
			return nil, err
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
	snap.Gov = st.governance(ls, fls)
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
	for _, k := range schema() {
		if err := c.Set(k.Name, s.Values[k.Name]); err != nil {
			panic(err) // schema keys are valid dot paths
		}
	}
	return c.All()
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
	var n []byte
	for _, l := range ls {
		n = append(strconv.AppendInt(n[:0], int64(len(l.data)), 10), '\n')
		h.Write(n)
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
