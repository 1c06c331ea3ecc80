package settings

// The YAML side of the store: a settings file as a node tree that keeps the
// user's comments, key order and unknown keys, flattened into dotted keys,
// checked for keys defined twice, and edited in place.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core"
)

const utf8BOM = "\xef\xbb\xbf"

// yamlFile is a settings file as charter edits it: the node tree, plus the
// byte-level habits of the file, written back as they were found.
type yamlFile struct {
	doc  *yaml.Node
	crlf bool // lines end in CR LF (decided by the first line)
	bom  bool // starts with a UTF-8 byte order mark
}

// decodeFile parses a settings file. An empty or comment-only file is an
// empty document. The problem, when there is one, has no File yet.
func decodeFile(data []byte) (*yamlFile, *FileProblem) {
	f := &yamlFile{}
	if rest, ok := bytes.CutPrefix(data, []byte(utf8BOM)); ok {
		f.bom, data = true, rest
	}
	if bytes.HasPrefix(data, []byte{0xfe, 0xff}) || bytes.HasPrefix(data, []byte{0xff, 0xfe}) {
		return nil, &FileProblem{Line: 1, Message: "the file is UTF-16 text: save it as UTF-8"}
	}
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		f.crlf = true
	}
	// The parser keeps a CR in comments, which the encoder then doubles
	// into a blank line: parse the text with plain LF line ends.
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))

	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, syntaxProblem(err)
	}
	// A second document would be dropped by the first write.
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, &FileProblem{Line: next.Line, Message: "a second YAML document starts here: a settings file holds one, so merge them or delete one"}
	} else if !errors.Is(err, io.EOF) {
		return nil, syntaxProblem(err)
	}
	if doc.Kind == 0 {
		// Nothing but comments: the parser returns none of them, so keep
		// them by hand as the document's head.
		doc = yaml.Node{Kind: yaml.DocumentNode, HeadComment: strings.Join(fullLineComments(data), "\n")}
	}
	if len(doc.Content) > 0 && doc.Content[0].Kind != yaml.MappingNode {
		return nil, &FileProblem{Line: doc.Content[0].Line, Message: "the top level must be a mapping of keys to values"}
	}
	f.doc = &doc
	return f, nil
}

// syntaxProblem pulls the line out of a YAML parser message.
func syntaxProblem(err error) *FileProblem {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				line, msg = n, strings.TrimSpace(rest[i+1:])
			}
		}
	}
	return &FileProblem{Line: line, Message: msg}
}

// root is the top-level mapping, created in an empty document.
func (f *yamlFile) root() *yaml.Node {
	if len(f.doc.Content) == 0 {
		f.doc.Content = []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}
	}
	return f.doc.Content[0]
}

// encode writes the tree back with the file's line ends and byte order
// mark. A file left with no keys keeps its comments, and nothing else.
func (f *yamlFile) encode() ([]byte, error) {
	var buf bytes.Buffer
	if f.bom {
		buf.WriteString(utf8BOM)
	}
	if doc := f.doc; len(doc.Content) == 0 || len(doc.Content[0].Content) == 0 {
		// The writer would print `{}`, which the next edit would keep
		// as a one-line mapping.
		var comments string
		if len(doc.Content) > 0 {
			m := doc.Content[0]
			comments = joinLines(doc.HeadComment, m.HeadComment, m.LineComment, m.FootComment, doc.FootComment)
		} else {
			comments = joinLines(doc.HeadComment, doc.FootComment)
		}
		if comments == "" {
			return []byte{}, nil
		}
		buf.WriteString(comments + "\n")
	} else {
		for _, d := range chunks(doc, chunkPairs) {
			enc := yaml.NewEncoder(&buf)
			enc.SetIndent(2)
			if err := enc.Encode(d); err != nil {
				return nil, err
			}
			if err := enc.Close(); err != nil {
				return nil, err
			}
		}
	}
	out := buf.Bytes()
	if f.crlf {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	return out, nil
}

// chunkPairs is how many top-level keys one encoder call writes at least.
// The YAML writer keeps every event of a document until it ends, so one
// large document costs far more than its parts (10,000 keys: 10 parses);
// a top-level key at column 0 that no comment touches is written the same
// alone as among its neighbours, so long files are written in parts.
const chunkPairs = 256

// chunks splits a document with a block mapping at the top into documents
// of at least n keys, cut only before a key with no comment above it that
// follows a value with no trailing comment: where the parts' text joins up to
// the whole document's. A small or unusual document stays whole.
func chunks(doc *yaml.Node, n int) []*yaml.Node {
	m := doc.Content[0]
	if len(m.Content) < 4*n || m.Style != 0 || m.Anchor != "" || m.Tag != "!!map" || doc.LineComment != "" || m.LineComment != "" {
		return []*yaml.Node{doc}
	}
	var out []*yaml.Node
	start := 0
	for j := 2 * n; j < len(m.Content); j += 2 {
		if j-start < 2*n || m.Content[j].HeadComment != "" || entryTrails(m.Content[j-2], m.Content[j-1]) {
			continue
		}
		out = append(out, part(m, start, j))
		start = j
	}
	out = append(out, part(m, start, len(m.Content)))
	if len(out) == 1 {
		return []*yaml.Node{doc}
	}
	first, last := out[0], out[len(out)-1]
	first.HeadComment = doc.HeadComment
	first.Content[0].HeadComment = m.HeadComment
	last.FootComment = doc.FootComment
	last.Content[0].FootComment = m.FootComment
	return out
}

func part(m *yaml.Node, from, to int) *yaml.Node {
	return &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: m.Tag, Content: m.Content[from:to]}}}
}

// trails: a comment under n that the writer may hold back and put after
// the next key: a foot comment, the line comment of a list or mapping, or
// a key's line comment when its value has one too.
func trails(n *yaml.Node) bool {
	if n.FootComment != "" || (n.Kind != yaml.ScalarNode && n.LineComment != "") {
		return true
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if entryTrails(n.Content[i], n.Content[i+1]) {
				return true
			}
		}
		return false
	}
	return slices.ContainsFunc(n.Content, trails)
}

func entryTrails(k, v *yaml.Node) bool {
	return (k.LineComment != "" && v.LineComment != "") || trails(k) || trails(v)
}

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
	problems = append(problems, aliases(doc)...)
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
			seq.Content = append(seq.Content, strNode(it))
		}
		return seq
	}
	return strNode(fmt.Sprint(v))
}
