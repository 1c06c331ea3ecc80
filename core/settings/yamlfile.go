package settings

// A settings file's bytes to a node tree and back, keeping its line ends,
// byte order mark and comments.

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
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
	if len(data) == 0 {
		// What the parser makes of no bytes, without starting it: most
		// layers have no file, and each parse costs start-up.
		f.doc = &yaml.Node{Kind: yaml.DocumentNode}
		return f, nil
	}
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
	if doc, ok := plainDoc(data); ok {
		f.doc = doc
		return f, nil
	}

	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, syntaxProblem(err, data)
	}
	// A second document would be dropped by the first write.
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, &FileProblem{Line: next.Line, Message: "a second YAML document starts here: a settings file holds one, so merge them or delete one"}
	} else if !errors.Is(err, io.EOF) {
		return nil, syntaxProblem(err, data)
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
	held := false // a key's line comment the writer still holds: it waits past aliases
	for j := 2; j < len(m.Content); j += 2 {
		k, v := m.Content[j-2], m.Content[j-1]
		held = v.Kind == yaml.AliasNode && (held || k.LineComment != "")
		if j-start < 2*n || held || m.Content[j].HeadComment != "" || entryTrails(k, v) {
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

// entryTrails: a key's line comment trails when its value has one too, or
// when the value is an alias (the writer puts nothing after an alias on
// its line and holds the comment for a later one).
func entryTrails(k, v *yaml.Node) bool {
	return (k.LineComment != "" && (v.LineComment != "" || v.Kind == yaml.AliasNode)) || trails(k) || trails(v)
}
