package apply

// Splicing charter's permission rules and MCP servers into an agent's JSON
// file (SPEC §14): only the lists and members charter owns change; every
// other key, entry, order and byte stays as the user wrote it.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/agentkit/charter/core/jsonedit"
)

// jsonStep makes the first edit a merge still needs, or returns nil.
type jsonStep func(d *jsonedit.Doc, fail func(off int, format string, args ...any) error) ([]byte, error)

// openJSON is the reader of a file the agent reads as JSONC, or as JSON.
func openJSON(jsonc bool) func([]byte, jsonedit.Fail) (*jsonedit.Doc, error) {
	if jsonc {
		return jsonedit.OpenJSONC
	}
	return jsonedit.Open
}

// editJSON runs step until it settles. An empty file starts as {}.
func editJSON(data []byte, jsonc bool, step jsonStep) ([]byte, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	for round := 0; round < 200; round++ {
		cur := data
		fail := func(off int, format string, args ...any) error {
			line, _ := jsonedit.Position(cur, off)
			return &MCPJSONError{Line: line, Msg: fmt.Sprintf(format, args...)}
		}
		d, err := openJSON(jsonc)(cur, func(off int, msg string) error { return fail(off, "%s", msg) })
		if err != nil {
			return nil, err
		}
		next, err := step(d, fail)
		if err != nil || next == nil {
			return cur, err
		}
		data = next
	}
	return nil, errors.New("the edits do not settle")
}

// render is a new value as one line, or indented like its neighbours.
func render(d *jsonedit.Doc, v any) jsonedit.Value {
	return func(prefix string, multi bool) string {
		if multi {
			return d.Render(v, prefix, true)
		}
		return jsonedit.Spaced(jsonedit.Encode(v, "", "", false, "\n"))
	}
}

// object finds the object at keys, adding the first one missing.
func object(d *jsonedit.Doc, fail func(int, string, ...any) error, keys []string) (*jsonedit.Node, []byte, error) {
	n := d.Root
	for i, k := range keys {
		if n.Kind != '{' {
			return nil, nil, fail(n.Start, "%s is not a JSON object", what(keys[:i]))
		}
		if dup := n.Duplicate(); dup != nil {
			return nil, nil, fail(dup.KeyStart, "key %q appears twice in %s", dup.Key, what(keys[:i]))
		}
		m := n.Member(k)
		if m == nil {
			return nil, d.AppendMember(n, k, render(d, struct{}{})), nil
		}
		n = m.Val
	}
	if n.Kind != '{' {
		return nil, nil, fail(n.Start, "%s is not a JSON object", what(keys))
	}
	return n, nil, nil
}

func what(keys []string) string {
	if len(keys) == 0 {
		return "the file"
	}
	b, _ := json.Marshal(keys)
	return "the member at " + string(b)
}

// listStep keeps want in the string list at keys (added at its end, in
// order) and takes out every entry of drop that is not wanted.
func listStep(keys []string, want, drop []string, made ...int) jsonStep {
	removed := false // this edit took an entry out: a container it empties goes
	return func(d *jsonedit.Doc, fail func(int, string, ...any) error) ([]byte, error) {
		if removed {
			if edit := pruneEmpty(d, keys, made); edit != nil {
				return edit, nil
			}
		}
		if len(want) == 0 && (len(drop) == 0 || d.Root.Lookup(keys...) == nil) {
			return nil, nil // nothing to add: no object is made for it
		}
		parent, edit, err := object(d, fail, keys[:len(keys)-1])
		if err != nil || edit != nil {
			return edit, err
		}
		m := parent.Member(keys[len(keys)-1])
		if m == nil {
			if len(want) == 0 {
				return nil, nil
			}
			return d.AppendMember(parent, keys[len(keys)-1], render(d, want)), nil
		}
		if m.Val.Kind != '[' {
			return nil, fail(m.Val.Start, "%s is not a list", what(keys))
		}
		have := make([]string, len(m.Val.Elems))
		for i, e := range m.Val.Elems {
			_ = json.Unmarshal(d.Raw(e), &have[i]) // a non-string entry is the user's, kept
			if slices.Contains(drop, have[i]) && !slices.Contains(want, have[i]) {
				removed = true
				return d.Remove(m.Val, i), nil
			}
		}
		for _, w := range want {
			if !slices.Contains(have, w) {
				return d.AppendElem(m.Val, render(d, w)), nil
			}
		}
		return nil, nil
	}
}

// membersStep makes each member of want at keys equal its value (in
// meaning; a member already right keeps its bytes), and removes the
// members named in drop.
func membersStep(keys []string, want map[string]any, drop []string, made ...int) jsonStep {
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	slices.Sort(names)
	removed := false
	return func(d *jsonedit.Doc, fail func(int, string, ...any) error) ([]byte, error) {
		if removed {
			if edit := pruneEmpty(d, keys, made); edit != nil {
				return edit, nil
			}
		}
		if len(want) == 0 && len(drop) == 0 {
			return nil, nil
		}
		if len(want) == 0 && d.Root.Lookup(keys...) == nil {
			return nil, nil // nothing to take out, and no object is made for it
		}
		obj, edit, err := object(d, fail, keys)
		if err != nil || edit != nil {
			return edit, err
		}
		for _, n := range drop {
			if m := obj.Member(n); m != nil && want[n] == nil {
				removed = true
				return d.Remove(obj, obj.MemberIndex(m)), nil
			}
		}
		for _, n := range names {
			m := obj.Member(n)
			if m == nil {
				return d.AppendMember(obj, n, render(d, want[n])), nil
			}
			var have, w any
			_ = json.Unmarshal(d.Raw(m.Val), &have)
			b, _ := json.Marshal(want[n])
			_ = json.Unmarshal(b, &w)
			if !reflect.DeepEqual(have, w) {
				multi := bytes.IndexByte(d.Raw(m.Val), '\n') >= 0 || bytes.IndexByte(d.Data, '\n') >= 0
				return d.Replace(m.Val, render(d, want[n])(d.IndentOf(m.KeyStart), multi)), nil
			}
		}
		return nil, nil
	}
}

// pruneEmpty takes out the deepest empty list or object on the way to
// keys, once charter's last entry in it went, up to keys[:made[0]], the
// first container charter made (none when made is empty or 0): what
// charter made for its entries alone is not left behind empty.
func pruneEmpty(d *jsonedit.Doc, keys []string, made []int) []byte {
	if len(made) == 0 || made[0] == 0 {
		return nil
	}
	for n := len(keys); n >= made[0]; n-- {
		m := d.Root.Lookup(keys[:n]...)
		if m == nil || (m.Val.Kind != '[' && m.Val.Kind != '{') {
			continue
		}
		if len(m.Val.Elems) > 0 || len(m.Val.Members) > 0 {
			return nil
		}
		parent := d.Root
		if n > 1 {
			parent = d.Root.Lookup(keys[:n-1]...).Val
		}
		return d.Remove(parent, parent.MemberIndex(m))
	}
	return nil
}
