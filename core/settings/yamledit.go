package settings

// The YAML side of the store: a settings file as a node tree that keeps the
// user's comments, key order and unknown keys, flattened into dotted keys,
// checked for keys defined twice, and edited in place.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core"
)

// leaf is one dotted key of a file and where it is written.
type leaf struct {
	key     string
	keyNode *yaml.Node
	value   *yaml.Node
}

// flatten turns a document into dotted keys. A literal dotted key such as
// `rules.tier: full` flattens to the same name as the nested form. It also
// returns every key defined twice: the same key twice in one mapping (at
// any depth), one dotted name in both spellings, or a name that holds a
// value while another line puts a key inside it. Problems have no File yet.
func flatten(doc *yaml.Node) ([]leaf, []FileProblem) {
	var leaves []leaf
	var problems []FileProblem
	var walk func(prefix string, m *yaml.Node)
	walk = func(prefix string, m *yaml.Node) {
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(m.Content); i += 2 {
			kn, v := m.Content[i], m.Content[i+1]
			if kn.Kind != yaml.ScalarNode {
				continue // a list or mapping as a key is never a setting
			}
			name := joinKey(prefix, kn.Value)
			if first, ok := seen[kn.Value]; ok {
				problems = append(problems, definedTwice(name, first, kn))
				continue
			}
			seen[kn.Value] = kn
			if _, isKey := Lookup(name); v.Kind == yaml.MappingNode && len(v.Content) > 0 && !isKey {
				walk(name, v)
				continue
			}
			leaves = append(leaves, leaf{key: name, keyNode: kn, value: v})
			problems = append(problems, duplicatesIn(name, v)...)
		}
	}
	if len(doc.Content) > 0 {
		walk("", doc.Content[0])
	}

	byName := make(map[string]leaf, len(leaves))
	for _, l := range leaves {
		if first, ok := byName[l.key]; ok {
			problems = append(problems, definedTwice(l.key, first.keyNode, l.keyNode))
			continue
		}
		byName[l.key] = l
	}
	for _, l := range leaves {
		for p := parentKey(l.key); p != ""; p = parentKey(p) {
			if pl, ok := byName[p]; ok && !isPlaceholder(pl.value) && pl.value.Kind != yaml.MappingNode {
				problems = append(problems, FileProblem{Line: l.keyNode.Line, Key: p,
					Message: fmt.Sprintf("%s has a value on line %d, and line %d puts %s inside it: keep one of the two", p, pl.keyNode.Line, l.keyNode.Line, l.key)})
				break
			}
		}
	}
	slices.SortStableFunc(problems, func(a, b FileProblem) int { return a.Line - b.Line })
	return leaves, problems
}

func definedTwice(name string, first, again *yaml.Node) FileProblem {
	return FileProblem{Line: again.Line, Key: name,
		Message: fmt.Sprintf("%s is defined twice, on line %d and on line %d: delete one of them", name, first.Line, again.Line)}
}

// duplicatesIn finds keys repeated in the mappings inside a value charter
// keeps as it is (lists of mappings and the like).
func duplicatesIn(name string, n *yaml.Node) []FileProblem {
	var out []FileProblem
	switch n.Kind {
	case yaml.MappingNode:
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn := n.Content[i]
			child := joinKey(name, kn.Value)
			if kn.Kind == yaml.ScalarNode {
				if first, ok := seen[kn.Value]; ok {
					out = append(out, definedTwice(child, first, kn))
				}
				seen[kn.Value] = kn
			}
			out = append(out, duplicatesIn(child, n.Content[i+1])...)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			out = append(out, duplicatesIn(fmt.Sprintf("%s[%d]", name, i), c)...)
		}
	}
	return out
}

func joinKey(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// parentKey drops the last segment: rules.tier → rules, rules → "".
func parentKey(key string) string {
	if i := strings.LastIndexByte(key, '.'); i > 0 {
		return key[:i]
	}
	return ""
}

// isPlaceholder: an empty mapping or an empty value, which holds nothing a
// write could lose.
func isPlaceholder(n *yaml.Node) bool {
	return n.Kind == yaml.MappingNode && len(n.Content) == 0 || isNull(n)
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// ownedValueError is a write that would have to replace a value the user
// wrote (a number, text, a list) with a mapping to hold the key.
type ownedValueError struct {
	Parent string // the dotted name holding the value
	Line   int
}

// Code is scalar_parent; the store turns the error into a Problem.
func (e *ownedValueError) Code() string { return core.CodeScalarParent }

func (e *ownedValueError) Error() string {
	return fmt.Sprintf("%s holds a value on line %d", e.Parent, e.Line)
}

// setValue puts val at the dotted key segs, wherever the file has it
// (nested, as a literal dotted key, or a mix), or adds it in nested form
// under the deepest part of its path the file already has. The key's
// comments stay; comments on the old value move to the new one. A value
// in the way (`rules: 5` when setting rules.tier) is never replaced: the
// edit stops with an *ownedValueError. flatten must have found no key
// defined twice, so that each name has at most one place.
func setValue(m *yaml.Node, prefix string, segs []string, val *yaml.Node) error {
	for n := len(segs); n >= 1; n-- {
		name := strings.Join(segs[:n], ".")
		j := keyIndex(m, name)
		if j < 0 {
			continue
		}
		kn, old := m.Content[j], m.Content[j+1]
		if n == len(segs) {
			val.HeadComment, val.LineComment, val.FootComment = old.HeadComment, old.LineComment, old.FootComment
			m.Content[j+1] = val
			return nil
		}
		switch {
		case old.Kind == yaml.MappingNode:
			return setValue(old, joinKey(prefix, name), segs[n:], val)
		case isNull(old): // an empty `rules:` is a section waiting for keys
			next := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			kn.LineComment = joinComments(kn.LineComment, old.LineComment)
			next.HeadComment, next.FootComment = old.HeadComment, old.FootComment
			m.Content[j+1] = next
			return setValue(next, joinKey(prefix, name), segs[n:], val)
		default:
			return &ownedValueError{Parent: joinKey(prefix, name), Line: kn.Line}
		}
	}
	for i := len(segs) - 1; i > 0; i-- {
		val = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{keyNode(segs[i]), val}}
	}
	m.Content = append(m.Content, keyNode(segs[0]), val)
	return nil
}

func keyNode(name string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name}
}

func joinComments(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + " " + b
}

func keyIndex(m *yaml.Node, name string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Kind == yaml.ScalarNode && m.Content[i].Value == name {
			return i
		}
	}
	return -1
}

// unsetValue removes the dotted key segs in whatever spelling the file has
// it, as deleting its lines by hand would: the comment at the end of the
// key's line and those inside its value go, the comments around it stay.
// A section left empty goes too, its comments kept the same way. It
// reports whether the key was there.
func unsetValue(m *yaml.Node, segs []string) bool {
	for n := len(segs); n >= 1; n-- {
		j := keyIndex(m, strings.Join(segs[:n], "."))
		if j < 0 {
			continue
		}
		if n == len(segs) {
			removePair(m, j, false)
			return true
		}
		child := m.Content[j+1]
		if child.Kind == yaml.MappingNode && unsetValue(child, segs[n:]) {
			if len(child.Content) == 0 {
				removePair(m, j, true)
			}
			return true
		}
	}
	return false
}

// removePair deletes the key at j and its value, and hands the comments
// above and below it (and, with keepLine, the one at the end of its line)
// to the next key, else to the one before, else to the mapping itself.
func removePair(m *yaml.Node, j int, keepLine bool) {
	k, v := m.Content[j], m.Content[j+1]
	moved := []string{k.HeadComment, v.HeadComment}
	if keepLine {
		moved = append(moved, k.LineComment, v.LineComment)
	}
	moved = append(moved, k.FootComment, v.FootComment)
	m.Content = slices.Delete(m.Content, j, j+2)
	switch {
	case j < len(m.Content):
		next := m.Content[j]
		next.HeadComment = joinLines(append(moved, next.HeadComment)...)
	case j >= 2:
		prev := m.Content[j-2]
		prev.FootComment = joinLines(append([]string{prev.FootComment}, moved...)...)
	default:
		m.FootComment = joinLines(append([]string{m.HeadComment, m.LineComment}, append(moved, m.FootComment)...)...)
		m.HeadComment, m.LineComment = "", ""
	}
}

// joinLines joins comment blocks, skipping empty ones.
func joinLines(blocks ...string) string {
	var out []string
	for _, b := range blocks {
		if b != "" {
			out = append(out, b)
		}
	}
	return strings.Join(out, "\n")
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

// fromNode reads a value from the file as its key's type asks. A value may
// be a reference to an anchor (`tier: *mine`).
func fromNode(k Key, n *yaml.Node) (any, error) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch k.Kind {
	case List:
		if n.Kind != yaml.SequenceNode {
			if n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || n.Value == "") {
				return []string{}, nil
			}
			return nil, k.problem("want a list of %ss", k.Item)
		}
		items := make([]string, 0, len(n.Content))
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				return nil, k.problem("want a list of %ss", k.Item)
			}
			items = append(items, c.Value)
		}
		return items, k.check(items)
	}
	if n.Kind != yaml.ScalarNode {
		return nil, k.problem("want a single value, not a %s", kindName(n.Kind))
	}
	return ParseText(k.Name, n.Value)
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.AliasNode:
		return "reference to an anchor"
	}
	return "value"
}
