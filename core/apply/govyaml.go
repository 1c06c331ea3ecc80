package apply

// Splicing charter's entries into a YAML file an agent reads (Continue's
// permissions.yaml lists and config.yaml mcpServers) line by line, so
// every other byte, comment and order stays: a list entry is one item of
// a block list (`- "…"`) or of a one-line flow list (`[…]`), a server one
// block item written as a one-line flow mapping. yaml.v3 only reads the
// file, to find the lines; charter's items go first in their list.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core/jsonedit"
)

// yamlDoc is a YAML file's top-level mapping, read for positions.
type yamlDoc struct {
	data  []byte
	lines []string // with their "\n"
	top   *yaml.Node
}

func openYAML(data []byte) (*yamlDoc, error) {
	d := &yamlDoc{data: data, lines: strings.SplitAfter(string(data), "\n")}
	// YAML ends a line at a lone carriage return too; charter's edits go
	// line by line on \n, so such a file is refused, not misread.
	if i := strings.IndexByte(strings.ReplaceAll(string(data), "\r\n", ""), '\r'); i >= 0 {
		return nil, &MCPJSONError{Msg: "the file ends a line with a carriage return alone (old Mac line endings): save it with \\n or \\r\\n line endings"}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &MCPJSONError{Msg: "the file is not YAML charter can read: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if len(doc.Content) == 0 {
		return d, nil
	}
	if doc.Content[0].Kind != yaml.MappingNode {
		return nil, &MCPJSONError{Line: doc.Content[0].Line, Msg: "the file is not a YAML mapping of keys"}
	}
	d.top = doc.Content[0]
	return d, nil
}

// seq is the value at top-level key: its key node (nil when absent) and
// value; an error when it is there but no list.
func (d *yamlDoc) seq(key string) (k, v *yaml.Node, err error) {
	if d.top == nil {
		return nil, nil, nil
	}
	for i := 0; i+1 < len(d.top.Content); i += 2 {
		if d.top.Content[i].Value != key {
			continue
		}
		k, v = d.top.Content[i], d.top.Content[i+1]
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return k, v, nil
		}
		if v.Kind != yaml.SequenceNode {
			return nil, nil, &MCPJSONError{Line: v.Line, Msg: key + " is not a list"}
		}
		if v.Style&yaml.FlowStyle != 0 && !d.oneLine(v) {
			return nil, nil, &MCPJSONError{Line: v.Line, Msg: key + " is a [ ] list over several lines: write it as a - list"}
		}
		return k, v, nil
	}
	return nil, nil, nil
}

// oneLine reports whether flow list v opens and closes on its line.
func (d *yamlDoc) oneLine(v *yaml.Node) bool {
	line := d.lines[v.Line-1]
	return strings.Count(line[v.Column-1:], "[") >= 1 && strings.Contains(line[v.Column-1:], "]")
}

// itemLine is item's whole line when item is a one-line block item.
func (d *yamlDoc) itemLine(item *yaml.Node) (string, bool) {
	line := d.lines[item.Line-1]
	rest := strings.TrimSpace(line)
	if !strings.HasPrefix(rest, "- ") {
		return "", false
	}
	var one, got any
	_ = item.Decode(&got)
	if yaml.Unmarshal([]byte(strings.TrimPrefix(rest, "- ")), &one) != nil || fmt.Sprint(one) != fmt.Sprint(got) {
		return "", false
	}
	return line, true
}

// yamlText is v as charter writes it on one line: JSON, which YAML reads.
func yamlText(v any) string {
	return jsonedit.Spaced(jsonedit.Encode(v, "", "", false, "\n"))
}

// decoded is item as a JSON value, for comparing and hashing.
func decoded(item *yaml.Node) any {
	var v any
	_ = item.Decode(&v)
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// decodedText is one line of YAML as a JSON value.
func decodedText(text string) any {
	var n yaml.Node
	if yaml.Unmarshal([]byte(text), &n) != nil || len(n.Content) == 0 {
		return nil
	}
	return decoded(n.Content[0])
}

// yamlStep makes the first edit still needed, or returns nil.
type yamlStep func(d *yamlDoc) ([]byte, error)

func editYAML(data []byte, step yamlStep) ([]byte, error) {
	for round := 0; round < 200; round++ {
		d, err := openYAML(data)
		if err != nil {
			return nil, err
		}
		next, err := step(d)
		if err != nil || next == nil {
			return data, err
		}
		data = next
	}
	return nil, fmt.Errorf("the edits do not settle")
}

// splice replaces lines [from, to) with text.
func (d *yamlDoc) splice(from, to int, text string) []byte {
	var b bytes.Buffer
	for _, l := range d.lines[:from] {
		b.WriteString(l)
	}
	if from > 0 && d.lines[from-1] != "" && !strings.HasSuffix(d.lines[from-1], "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(text)
	for _, l := range d.lines[to:] {
		b.WriteString(l)
	}
	return append([]byte{}, b.Bytes()...) // never nil: an edit may empty the file
}

// yamlSeqStep keeps each of want (item texts by identity) in the list at
// key and takes out every item whose identity is in drop. made: charter
// made the key, which goes with its last item.
func yamlSeqStep(key string, want map[string]string, order, drop []string, ident func(*yaml.Node) string, made bool) yamlStep {
	return func(d *yamlDoc) ([]byte, error) {
		k, v, err := d.seq(key)
		if err != nil {
			return nil, err
		}
		var items []*yaml.Node
		if v != nil && v.Kind == yaml.SequenceNode {
			items = v.Content
		}
		for i, it := range items {
			id := ident(it)
			if _, ok := want[id]; ok || !slices.Contains(drop, id) {
				continue
			}
			if v.Style&yaml.FlowStyle != 0 {
				return d.flowRemove(v, i), nil
			}
			if _, ok := d.itemLine(it); !ok {
				continue // written over several lines: the user's now
			}
			if made && len(items) == 1 && k.Line == it.Line-1 {
				return d.splice(k.Line-1, it.Line, ""), nil
			}
			return d.splice(it.Line-1, it.Line, ""), nil
		}
		for _, it := range items {
			text, ok := want[ident(it)]
			line, one := d.itemLine(it)
			if !ok || !one || v.Style&yaml.FlowStyle != 0 || sumJSON(decoded(it)) == sumJSON(decodedText(text)) {
				continue
			}
			indent := line[:strings.Index(line, "-")]
			return d.splice(it.Line-1, it.Line, indent+"- "+text+"\n"), nil
		}
		for _, id := range order {
			if slices.ContainsFunc(items, func(it *yaml.Node) bool { return ident(it) == id }) {
				continue
			}
			text := want[id]
			switch {
			case k == nil:
				return d.splice(len(d.lines), len(d.lines), key+":\n  - "+text+"\n"), nil
			case v.Kind != yaml.SequenceNode: // key: with nothing after it
				return d.splice(k.Line, k.Line, "  - "+text+"\n"), nil
			case v.Style&yaml.FlowStyle != 0:
				return d.flowAdd(v, text), nil
			case len(items) == 0:
				return nil, &MCPJSONError{Line: v.Line, Msg: key + " is an empty list charter cannot add to"}
			}
			first := items[0]
			indent := d.lines[first.Line-1][:first.Column-3]
			return d.splice(first.Line-1, first.Line-1, indent+"- "+text+"\n"), nil
		}
		return nil, nil
	}
}

// flowAdd puts text first in the one-line flow list v.
func (d *yamlDoc) flowAdd(v *yaml.Node, text string) []byte {
	line := d.lines[v.Line-1]
	open := v.Column - 1 + strings.Index(line[v.Column-1:], "[")
	sep := ", "
	if len(v.Content) == 0 {
		sep = ""
	}
	return d.splice(v.Line-1, v.Line, line[:open+1]+text+sep+strings.TrimLeft(line[open+1:], " "))
}

// flowRemove takes item i out of the one-line flow list v with its comma.
func (d *yamlDoc) flowRemove(v *yaml.Node, i int) []byte {
	line := d.lines[v.Line-1]
	it := v.Content[i]
	start := it.Column - 1
	end := start + len(rawScalar(line[start:]))
	switch {
	case len(v.Content) == 1:
	case i == len(v.Content)-1:
		start = strings.LastIndex(line[:start], ",")
	default:
		end = start + strings.Index(line[start:], ",") + 1
		for end < len(line) && line[end] == ' ' {
			end++
		}
	}
	return d.splice(v.Line-1, v.Line, line[:start]+line[end:])
}

// rawScalar is the flow item at the start of s: a quoted string or the
// text up to the next comma or bracket.
func rawScalar(s string) string {
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		for i := 1; i < len(s); i++ {
			if s[i] == '\\' && s[0] == '"' {
				i++
				continue
			}
			if s[i] == s[0] {
				return s[:i+1]
			}
		}
	}
	if i := strings.IndexAny(s, ",]"); i >= 0 {
		return strings.TrimRight(s[:i], " ")
	}
	return s
}
