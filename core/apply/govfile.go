package apply

// One agent file that holds permission rules or MCP servers, and the edit
// that brings charter's entries in it up to date against the record:
// entries charter added and that are no longer wanted go, entries the user
// had or changed stay theirs.

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/jsonedit"
)

// govFile is what charter wants in one file.
type govFile struct {
	path, agent, level string
	format             string // "json", "toml" (Codex config.toml), "rules" (a Codex rules file)
	lists              []govList
	servers            map[string]any // name → the native value (JSON) or table (TOML)
	serverKeys         []string       // where the servers live; nil: none in this file
	rules              []byte         // the rules file's bytes, nil for none
	locked             bool           // rules holds the policy's locked rules
	jsonc              bool           // the agent reads it as JSONC: comments are kept
	netOff             bool           // Codex's config.toml: network_access = false (a deny of web:*)
}

// govList is one list of permission entries: those wanted, and those to
// take out when present (a native allow of a rule the policy denies).
type govList struct {
	keys       []string
	want, drop []string
	vals       map[string]string // an object of pattern → verdict (OpenCode), nil for a list
}

func (f *govFile) list(keys []string) *govList {
	for i := range f.lists {
		if slices.Equal(f.lists[i].keys, keys) {
			return &f.lists[i]
		}
	}
	f.lists = append(f.lists, govList{keys: keys})
	return &f.lists[len(f.lists)-1]
}

// edit is the file's new bytes for old, with the record settled.
func (f *govFile) edit(b *govBook, old []byte) ([]byte, error) {
	switch f.format {
	case "toml":
		return f.editTOML(b, old)
	case "rules":
		return f.editRules(b, old), nil
	case "yaml":
		return f.editYAML(b, old)
	}
	return f.editJSON(b, old)
}

// editJSON edits a JSON file (Claude, Gemini, Cursor, VS Code).
func (f *govFile) editJSON(b *govBook, old []byte) ([]byte, error) {
	var d *jsonedit.Doc
	if len(bytes.TrimSpace(old)) > 0 {
		var err error
		if d, err = openJSON(f.jsonc)(old, func(off int, msg string) error {
			line, _ := jsonedit.Position(old, off)
			return &MCPJSONError{Line: line, Msg: msg}
		}); err != nil {
			return nil, err
		}
	}
	var owned []GovEntry
	var kept []GovKept
	var steps []jsonStep
	for _, l := range f.allLists(b) {
		key := strings.Join(l.keys, ".")
		isObj := l.vals != nil || isObject(d, l.keys)
		// Ordered, first match wins (Amp, Auggie); Zed's lists of objects
		// are kept the same way, charter's first.
		front := key == "amp.permissions" || key == "toolPermissions" || zedList(key)
		have := stringList(d, l.keys)
		switch {
		case front:
			have = canonList(d, l.keys)
		case isObj:
			have = objectHave(d, l.keys, l.vals)
		}
		drop := slices.Clone(l.drop)
		for _, e := range b.prev[f.path] {
			if e.Key == key && e.Entry != "" && !slices.Contains(l.want, e.Entry) {
				drop = append(drop, e.Entry)
			}
		}
		for _, w := range l.want {
			if _, ok := b.recorded(f.path, key, w); ok || !slices.Contains(have, w) {
				owned = append(owned, GovEntry{Path: f.path, Agent: f.agent, Key: key, Entry: w})
			}
		}
		made := b.made(f.path, key, d, l.keys, len(l.want) > 0)
		if made > 0 && len(l.want) > 0 {
			owned = append(owned, GovEntry{Path: f.path, Agent: f.agent, Key: key, Made: made})
		}
		if front {
			steps = append(steps, frontStep(l.keys, l.want, drop, made))
		} else if isObj {
			steps = append(steps, objStep(l.keys, l.want, l.vals, drop, made))
		} else {
			steps = append(steps, listStep(l.keys, l.want, drop, made))
		}
	}
	if f.serverKeys != nil {
		key := strings.Join(f.serverKeys, ".")
		want := map[string]any{}
		var drop []string
		have := func(name string) (any, bool) {
			if d == nil {
				return nil, false
			}
			n := d.Root.Lookup(append(slices.Clone(f.serverKeys), name)...)
			if n == nil {
				return nil, false
			}
			var v any
			_ = json.Unmarshal(d.Raw(n.Val), &v)
			return v, true
		}
		o := f.owner(b, key, have)
		for _, name := range sortedKeys(f.servers) {
			if e, ok := o.take(name, f.servers[name]); ok {
				want[name] = f.servers[name]
				owned = append(owned, e)
			}
		}
		drop, kept = o.gone(f.servers), append(kept, o.kept...)
		made := b.made(f.path, key, d, f.serverKeys, len(want) > 0)
		if made > 0 && len(want) > 0 {
			owned = append(owned, GovEntry{Path: f.path, Agent: f.agent, Key: key, Made: made})
		}
		steps = append(steps, membersStep(f.serverKeys, want, drop, made))
	}
	data := old
	if d == nil {
		data = nil
	}
	none := data == nil
	for _, s := range steps {
		var err error
		if data, err = editJSON(data, f.jsonc, s); err != nil {
			return nil, err
		}
	}
	b.settle(f.path, owned, kept)
	if none && string(data) == "{}\n" {
		return nil, nil // nothing to keep: no file
	}
	if !none && !bytes.Equal(old, data) && emptyObject(data) && len(b.prev[f.path]) > 0 && !emptyObject(old) {
		return nil, nil // charter's entries were all the file held: it made it
	}
	return data, nil
}

// made is how many of keys lead to the first container charter made for
// its entries at key: as recorded, or, when charter is about to add
// entries, the first of keys missing in d now (0: the user's own).
func (b *govBook) made(path, key string, d *jsonedit.Doc, keys []string, adding bool) int {
	for _, e := range b.prev[path] {
		if e.Key == key && e.Entry == "" && e.Made > 0 {
			return e.Made
		}
	}
	if !adding {
		return 0
	}
	for n := 1; n <= len(keys); n++ {
		if d == nil || d.Root.Lookup(keys[:n]...) == nil {
			return n
		}
	}
	return 0
}

// allLists are the wanted lists and those the record has entries in.
func (f *govFile) allLists(b *govBook) []govList {
	out := slices.Clone(f.lists)
	for _, e := range b.prev[f.path] {
		keys := strings.Split(e.Key, ".")
		if e.Key == "amp.permissions" {
			keys = []string{e.Key} // one flat key, dot included
		}
		if e.Key == "file" || (f.serverKeys != nil && e.Key == strings.Join(f.serverKeys, ".")) {
			continue
		}
		if !slices.ContainsFunc(out, func(l govList) bool { return slices.Equal(l.keys, keys) }) {
			out = append(out, govList{keys: keys})
		}
	}
	slices.SortFunc(out, func(x, y govList) int { return strings.Compare(strings.Join(x.keys, "."), strings.Join(y.keys, ".")) })
	return out
}

// stringList is the string entries of the list at keys in d.
func stringList(d *jsonedit.Doc, keys []string) []string {
	if d == nil {
		return nil
	}
	n := d.Root.Lookup(keys...)
	if n == nil || n.Val.Kind != '[' {
		return nil
	}
	out := make([]string, 0, len(n.Val.Elems))
	for _, e := range n.Val.Elems {
		var s string
		if json.Unmarshal(d.Raw(e), &s) == nil {
			out = append(out, s)
		}
	}
	return out
}

// serverOwner decides, server by server, whether charter may write one
// (absent, or charter's as recorded) and which recorded ones go.
type serverOwner struct {
	f    *govFile
	b    *govBook
	key  string
	have func(name string) (any, bool)
	kept []GovKept
}

func (f *govFile) owner(b *govBook, key string, have func(string) (any, bool)) *serverOwner {
	return &serverOwner{f: f, b: b, key: key, have: have}
}

// take reports whether charter writes server name as want, and the
// record entry it then has.
func (o *serverOwner) take(name string, want any) (GovEntry, bool) {
	e := GovEntry{Path: o.f.path, Agent: o.f.agent, Key: o.key, Entry: name, SHA256: sumJSON(want)}
	cur, present := o.have(name)
	rec, recorded := o.b.recorded(o.f.path, o.key, name)
	switch {
	case !present:
		return e, true
	case sumJSON(cur) == e.SHA256: // already as charter would write it
		return e, true
	case recorded && sumJSON(cur) == rec.SHA256:
		return e, true
	case recorded:
		o.keep(name, "changed by hand since charter wrote it: it is yours now, charter leaves it (remove it to let charter write it again)")
	default:
		o.keep(name, "a server of this name is already there, not charter's: charter leaves it (remove or rename it to let charter write its own)")
	}
	return GovEntry{}, false
}

// gone are the recorded servers no longer wanted that are still as
// charter wrote them: those are taken out.
func (o *serverOwner) gone(want map[string]any) []string {
	var out []string
	for _, e := range o.b.prev[o.f.path] {
		if e.Key != o.key || e.Entry == "" {
			continue
		}
		if _, ok := want[e.Entry]; ok {
			continue
		}
		cur, present := o.have(e.Entry)
		switch {
		case !present:
		case sumJSON(cur) == e.SHA256:
			out = append(out, e.Entry)
		default:
			o.keep(e.Entry, "no longer in the settings, but changed by hand since charter wrote it: left as yours")
		}
	}
	return out
}

func (o *serverOwner) keep(name, why string) {
	o.kept = append(o.kept, GovKept{Agent: o.f.agent, Level: o.f.level, Path: o.f.path, What: "server " + name, Reason: why})
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
