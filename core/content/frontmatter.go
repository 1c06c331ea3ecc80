package content

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxFrontmatter caps the YAML between the --- lines: a few hundred bytes
// is usual, and the YAML library's cost grows far faster than its input.
const MaxFrontmatter = 64 << 10

// Frontmatter is a Markdown source split at its --- lines.
type Frontmatter struct {
	Present bool   // the file opens with a --- line that is closed
	Raw     []byte // the YAML between the --- lines, byte for byte
	Body    []byte // everything after the closing line, byte for byte
	// Fields are the top-level keys in the order written, each with the
	// value's node (lines are the file's, not the YAML's).
	Fields []Field
}

// Field is one top-level key of the frontmatter.
type Field struct {
	Key   string
	Line  int // the key's line in the file
	Value *yaml.Node
}

// Lookup returns the field named key, nil when absent.
func (f *Frontmatter) Lookup(key string) *Field {
	for i := range f.Fields {
		if f.Fields[i].Key == key {
			return &f.Fields[i]
		}
	}
	return nil
}

// ParseFrontmatter splits data into its YAML frontmatter and its body.
// A file that does not open with a line of three dashes has no frontmatter:
// all of it is the body. A problem comes back with the file's line number
// (Path left empty for the caller to fill in).
func ParseFrontmatter(data []byte) (fm Frontmatter, p *Problem) {
	rest, ok := cutLine(data, 0)
	if !ok {
		return Frontmatter{Body: data}, nil
	}
	// rest is the offset just past the opening line; find the closing one.
	line, start := 2, rest
	for pos := rest; pos < len(data); line++ {
		end := bytes.IndexByte(data[pos:], '\n')
		next := len(data)
		if end >= 0 {
			next = pos + end + 1
		}
		if isFence(data[pos:next]) {
			fm = Frontmatter{Present: true, Raw: data[start:pos], Body: data[next:]}
			return fm, fm.parse(2)
		}
		pos = next
	}
	return Frontmatter{}, &Problem{Line: 1, Message: "the frontmatter opened by --- on line 1 is never closed: end it with a line of ---"}
}

// cutLine reports whether data's line at pos is a fence, and where the next
// line starts.
func cutLine(data []byte, pos int) (int, bool) {
	end := bytes.IndexByte(data[pos:], '\n')
	if end < 0 {
		return 0, false // a lone "---" with nothing after opens nothing
	}
	line := data[pos : pos+end+1]
	if pos == 0 {
		line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	}
	return pos + end + 1, isFence(line)
}

// isFence reports whether line (with its line end) is "---", trailing
// blanks allowed.
func isFence(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r\n")) == "---"
}

// parse reads Raw, whose first line is the file's line first.
func (fm *Frontmatter) parse(first int) (p *Problem) {
	if len(fm.Raw) > MaxFrontmatter {
		return &Problem{Line: first, Message: fmt.Sprintf("the frontmatter is larger than %d KiB: keep it to a few fields and put the rest in the body", MaxFrontmatter>>10)}
	}
	if fields, ok := simpleFields(fm.Raw, first); ok {
		fm.Fields = fields
		return nil
	}
	return fm.parseYAML(first)
}

// parseYAML reads Raw with the YAML library.
func (fm *Frontmatter) parseYAML(first int) (p *Problem) {
	defer func() {
		// The YAML library has panicked on hostile input before; a source
		// is repository input, so a panic is a malformed file, not a crash.
		if r := recover(); r != nil {
			p = &Problem{Line: first, Message: "the frontmatter is not valid YAML"}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(fm.Raw))
	var doc yaml.Node
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
		return nil // only blanks and comments
	case err != nil:
		return fm.yamlProblem(err, first)
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return &Problem{Line: fm.line(next.Line, first), Message: "a second YAML document starts here: the frontmatter holds one mapping"}
	} else if !errors.Is(err, io.EOF) {
		return fm.yamlProblem(err, first)
	}
	if len(doc.Content) == 0 {
		return nil
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return &Problem{Line: fm.line(m.Line, first), Message: "the frontmatter must be a mapping of keys to values"}
	}
	fm.shift(m, first)
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
			return &Problem{Line: k.Line, Message: "a frontmatter key must be plain text"}
		}
		if at, dup := seen[k.Value]; dup {
			return &Problem{Line: k.Line, Message: fmt.Sprintf("%s is given twice (first on line %d): keep one", k.Value, at)}
		}
		seen[k.Value] = k.Line
		fm.Fields = append(fm.Fields, Field{Key: k.Value, Line: k.Line, Value: v})
	}
	return nil
}

// line is the file's line of the YAML's line y. YAML also breaks lines at
// a lone CR and at NEL, LS and PS, which Markdown tools do not: a line is
// held to the frontmatter's own.
func (fm *Frontmatter) line(y, first int) int {
	last := first + bytes.Count(bytes.TrimRight(fm.Raw, "\r\n"), []byte("\n"))
	return max(first, min(y+first-1, last))
}

// shift makes every node's line the file's. An alias is not followed: its
// anchor is shifted where it stands.
func (fm *Frontmatter) shift(n *yaml.Node, first int) {
	seen := map[*yaml.Node]bool{}
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		n.Line = fm.line(n.Line, first)
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
}

// yamlProblem turns the YAML library's message into a problem on the
// file's line.
func (fm *Frontmatter) yamlProblem(err error, first int) *Problem {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				line, msg = n, strings.TrimSpace(rest[i+1:])
				// The parser (not the scanner) counts a context's line
				// from 0: its "did not find expected …" is one line early.
				if parserMiss(msg) {
					line++
				}
			}
		}
	}
	// The parser may point past the end (an unclosed [ on the last line).
	return &Problem{Line: fm.line(line, first), Message: "the frontmatter is not valid YAML: " + msg}
}

// parserMiss reports a parser's "did not find expected …"; the scanner's
// (an alias's name, a tag's, a line break) count lines from 1.
func parserMiss(msg string) bool {
	what, ok := strings.CutPrefix(msg, "did not find expected ")
	if !ok {
		return false
	}
	for _, s := range []string{"alphabetic", "whitespace", "comment", "hexdecimal", "tag", "URI", "'!'"} {
		if strings.Contains(what, s) {
			return false
		}
	}
	return true
}
