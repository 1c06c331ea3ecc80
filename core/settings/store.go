package settings

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/afero"
	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/helpers/config"
	"github.com/agentkit/charter/helpers/objcopy"
)

// FileName is the settings file in a scope directory.
const FileName = "settings.yaml"

// OriginDefault marks a value that no file sets.
const OriginDefault = "default"

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

// Read returns the effective settings.
func (st *Store) Read() (*Snapshot, error) {
	files := make([][]byte, 0, 2)
	for _, p := range st.layers() {
		data, err := afero.ReadFile(st.sys.Fs, p)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		files = append(files, data)
	}
	return st.snapshot(files)
}

func (st *Store) snapshot(files [][]byte) (*Snapshot, error) {
	snap := &Snapshot{
		Scope:   st.scope,
		Values:  make(map[string]any, len(schema)),
		Origins: make(map[string]string, len(schema)),
		ETag:    etag(files),
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
	for i, p := range st.layers() {
		doc, err := parse(p, files[i])
		if err != nil {
			return nil, err
		}
		for _, leaf := range leaves(doc) {
			k, ok := Lookup(leaf.key)
			if !ok {
				unknown[leaf.key] = true
				continue
			}
			v, err := fromNode(k, leaf.value)
			if err != nil {
				return nil, &SyntaxError{Path: p, Line: leaf.value.Line, Msg: err.Error()}
			}
			snap.Values[k.Name] = v
			snap.Origins[k.Name] = p
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
// atomically. Comments, key order and unknown keys survive.
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
	if len(problems) > 0 {
		sort.Slice(problems, func(i, j int) bool { return problems[i].Key < problems[j].Key })
		return nil, &ValidationError{Problems: problems}
	}

	path := st.Path()
	var snap *Snapshot
	err := st.sys.UpdateFileOpts(path, core.WriteOptions{ConfirmShared: u.ConfirmShared, Owned: true}, func(old []byte) ([]byte, error) {
		files, err := st.lowerLayers()
		if err != nil {
			return nil, err
		}
		if u.IfMatch != "" {
			if cur := etag(append(files, old)); cur != u.IfMatch {
				return nil, &StaleError{Current: cur}
			}
		}
		// charter never rewrites a file it cannot read.
		if _, err := st.snapshot(append(files, old)); err != nil {
			return nil, err
		}
		doc, err := parse(path, old)
		if err != nil {
			return nil, err
		}
		root := ensureMapping(doc)
		for _, key := range sortedKeys(u.Set) {
			setValue(root, key, toNode(u.Set[key]))
		}
		for _, key := range u.Unset {
			k, _ := Lookup(key)
			unsetValue(root, k.segments())
		}
		data, err := encode(doc)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", path, err)
		}
		if snap, err = st.snapshot(append(files, data)); err != nil {
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

// lowerLayers reads every layer below the scope file.
func (st *Store) lowerLayers() ([][]byte, error) {
	ls := st.layers()
	out := make([][]byte, 0, len(ls))
	for _, p := range ls[:len(ls)-1] {
		data, err := afero.ReadFile(st.sys.Fs, p)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		out = append(out, data)
	}
	return out, nil
}

func etag(files [][]byte) string {
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%d\n", len(f))
		h.Write(f)
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

// parse reads a settings file into a YAML document node. An empty or
// comment-only file is an empty document.
func parse(path string, data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, syntaxError(path, err)
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, HeadComment: doc.HeadComment}
	}
	if len(doc.Content) > 0 && doc.Content[0].Kind != yaml.MappingNode {
		return nil, &SyntaxError{Path: path, Line: doc.Content[0].Line, Msg: "the top level must be a mapping of keys to values"}
	}
	return &doc, nil
}

// syntaxError pulls the line out of a YAML parser message.
func syntaxError(path string, err error) error {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				line, msg = n, strings.TrimSpace(rest[i+1:])
			}
		}
	}
	return &SyntaxError{Path: path, Line: line, Msg: msg}
}

type leaf struct {
	key   string
	value *yaml.Node
}

// leaves flattens a document into dotted keys. A literal dotted key such as
// `rules.tier: full` flattens to the same name as the nested form.
func leaves(doc *yaml.Node) []leaf {
	var out []leaf
	var walk func(prefix string, n *yaml.Node)
	walk = func(prefix string, n *yaml.Node) {
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			if prefix != "" {
				key = prefix + "." + key
			}
			v := n.Content[i+1]
			if _, isKey := Lookup(key); v.Kind == yaml.MappingNode && len(v.Content) > 0 && !isKey {
				walk(key, v)
				continue
			}
			out = append(out, leaf{key: key, value: v})
		}
	}
	if len(doc.Content) > 0 {
		walk("", doc.Content[0])
	}
	return out
}

func fromNode(k Key, n *yaml.Node) (any, error) {
	switch k.Kind {
	case List:
		if n.Kind != yaml.SequenceNode {
			if n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || n.Value == "") {
				return []string{}, nil
			}
			return nil, fmt.Errorf("%s: want a list of %ss", k.Name, k.Item)
		}
		items := make([]string, 0, len(n.Content))
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("%s: want a list of %ss", k.Name, k.Item)
			}
			items = append(items, c.Value)
		}
		return items, k.check(items)
	}
	if n.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("%s: want a single value, not a %s", k.Name, kindName(n.Kind))
	}
	return ParseText(k.Name, n.Value)
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	}
	return "value"
}

// toNode renders a value the way charter writes it.
func toNode(v any) *yaml.Node {
	switch t := v.(type) {
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(t)}
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(t, 10)}
	case Dec:
		tag := "!!float"
		if !strings.ContainsAny(string(t), ".eE") {
			tag = "!!int"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(t)}
	case []string:
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, it := range t {
			seq.Content = append(seq.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: it})
		}
		return seq
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: fmt.Sprint(v)}
}

func ensureMapping(doc *yaml.Node) *yaml.Node {
	if len(doc.Content) == 0 {
		doc.Content = []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}
	}
	return doc.Content[0]
}

// setValue replaces the value node of key, wherever the file has it (nested
// or as a literal dotted key), or adds it in nested form. Comments attached
// to the key stay; comments on the old value move to the new one.
func setValue(root *yaml.Node, key string, val *yaml.Node) {
	if n := find(root, "", key); n != nil {
		val.LineComment, val.HeadComment, val.FootComment = n.LineComment, n.HeadComment, n.FootComment
		*n = *val
		return
	}
	k, _ := Lookup(key)
	segs := k.segments()
	m := root
	for i, seg := range segs {
		j := keyIndex(m, seg)
		if i == len(segs)-1 {
			if j >= 0 {
				m.Content[j+1] = val
			} else {
				m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: seg}, val)
			}
			return
		}
		if j < 0 || m.Content[j+1].Kind != yaml.MappingNode {
			next := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			if j < 0 {
				m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: seg}, next)
			} else {
				m.Content[j+1] = next
			}
			m = next
			continue
		}
		m = m.Content[j+1]
	}
}

// find returns the value node whose flattened name is key.
func find(m *yaml.Node, prefix, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		name := m.Content[i].Value
		if prefix != "" {
			name = prefix + "." + name
		}
		v := m.Content[i+1]
		switch {
		case name == key && !(v.Kind == yaml.MappingNode && len(v.Content) > 0):
			return v
		case strings.HasPrefix(key, name+".") && v.Kind == yaml.MappingNode:
			if n := find(v, name, key); n != nil {
				return n
			}
		}
	}
	return nil
}

func keyIndex(m *yaml.Node, seg string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == seg {
			return i
		}
	}
	return -1
}

// unsetValue removes key in nested or literal dotted form and drops
// mappings it leaves empty.
func unsetValue(m *yaml.Node, segs []string) bool {
	for n := len(segs); n >= 1; n-- {
		j := keyIndex(m, strings.Join(segs[:n], "."))
		if j < 0 {
			continue
		}
		if n == len(segs) {
			m.Content = slices.Delete(m.Content, j, j+2)
			return true
		}
		child := m.Content[j+1]
		if child.Kind == yaml.MappingNode && unsetValue(child, segs[n:]) {
			if len(child.Content) == 0 && child.HeadComment == "" && m.Content[j].HeadComment == "" {
				m.Content = slices.Delete(m.Content, j, j+2)
			}
			return true
		}
	}
	return false
}

func encode(doc *yaml.Node) ([]byte, error) {
	if len(doc.Content) == 0 || len(doc.Content[0].Content) == 0 && doc.HeadComment == "" && doc.Content[0].HeadComment == "" && doc.Content[0].FootComment == "" {
		return []byte{}, nil
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
