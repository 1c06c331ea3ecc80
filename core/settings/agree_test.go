package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// The published JSON Schema and charter agree on every settings file, or
// the file shows one of the differences README.md's table documents. The
// editor is modelled as yaml-language-server, ajv and Python's jsonschema
// see a file: YAML 1.2 core types, numbers as binary64 floats, then a
// JSON Schema 2020-12 validator that asserts formats
// (santhosh-tekuri/jsonschema, which passes the official test suite's
// format tests). Files: every key with every value below in each spelling
// (nested, dotted at the top, dotted inside its section), then random
// files of several keys.
func TestSchemaAgrees(t *testing.T) {
	sch := compiledSchema(t)
	var keys []Key
	values := slices.Clone(agreeValues)
	for _, k := range Keys() {
		keys = append(keys, k)
		for _, c := range k.Choices {
			if !slices.Contains(values, c) {
				values = append(values, c)
			}
		}
	}
	accepted, files := 0, 0
	counts := map[string]int{}
	var bad []string
	check := func(entries []entry) {
		files++
		text := render(entries)
		got := Validate("/s/settings.yaml", []byte(text)) == nil
		if got {
			accepted++
		}
		want, why := schemaVerdict(sch, text)
		if got == want {
			return
		}
		for _, d := range documented {
			if !got && d.explains(entries) {
				counts[d.name]++
				return
			}
		}
		bad = append(bad, fmt.Sprintf("charter accepts %v, the schema %v (%s):\n%s", got, want, why, text))
	}
	for _, k := range keys {
		for _, v := range values {
			for sp := range 3 {
				check([]entry{{k, v, sp}})
			}
		}
	}
	rnd := rand.New(rand.NewPCG(25, 5))
	for range 2000 {
		var entries []entry
		for _, i := range rnd.Perm(len(keys))[:1+rnd.IntN(5)] {
			entries = append(entries, entry{keys[i], values[rnd.IntN(len(values))], rnd.IntN(3)})
		}
		check(entries)
	}
	if accepted < files/10 || accepted > files*9/10 {
		t.Errorf("%d of %d files accepted: the values no longer probe both sides", accepted, files)
	}
	total := 0
	var parts []string
	for _, d := range documented {
		total += counts[d.name]
		parts = append(parts, fmt.Sprintf("%s: %d", d.name, counts[d.name]))
	}
	t.Logf("schema agreement: %d files, %d accepted, %d documented differences (%s), %d undocumented",
		files, accepted, total, strings.Join(parts, "; "), len(bad))
	if len(bad) > 0 {
		t.Errorf("%d of %d files disagree beyond README's documented differences; the first:\n%s", len(bad), files, strings.Join(bad[:min(len(bad), 15)], "\n---\n"))
	}
}

// agreeValues are YAML value texts: every type in many spellings, and the
// cases clients found (issue 38): control characters around text, .nan
// and .inf, numbers past binary64 precision, a signed duration, tags.
var agreeValues = []string{
	"~", "null", "NULL", "", `""`, "true", "false", "True", "FALSE", "yes", "no", "on", "off", "Y", "n", `"true"`,
	"0", "1", "4", "-1", "4.0", "1e1", "1.5e1", "0x10", "0o17", "+3", "007", ".5", "12.5", `"12.5"`, "'4'", "500", "1_000", "0b11", "11", "20", "21", "100", "100.5", "0.6",
	"full", "FULL", "Full", `"full"`, " full", "minimal", "balanced", "ask", "on", `"off"`, "hard-stop", "advisory", "auto", "always", "never", "stop", "warn",
	"0s", "90s", "10m", "1h", "60m", "3600s", "1h0m1s", "2h", "9999999h", "1.5s", `" 90s "`, "1h30m", "0.5h", "0h0m", "90", "10 m",
	"make test", `"a\tb"`, "'x'", "!!str 5", "!!str true", "2001-12-14", "[]", "[a, b]", "[yes, 2]", `[""]`, "[a, ~]", "[[a]]", "{}", "{x: 1}",
	// text with a control character or a space at one end
	`"\tmake test"`, `"make test\t"`, `"\rmake"`, `"make\v"`, `"\fmake"`, `"make\N"`, `"\Lmake"`, `"make\P"`, `" make "`, `"make\_"`,
	`["\ta"]`, `["a\N"]`, `"\t90s"`, `"90s\v"`, `"\_90s"`, `"90s\L"`, `"\N10m"`,
	// YAML's non-numbers
	".nan", ".NaN", ".inf", "-.inf", ".Inf",
	// numbers a binary64 reader rounds
	"3.0000000000000001", "100.0000000000000001", "0.99999999999999999", "1.0000000000000001", "1e400",
	// signed durations
	"+10m", "+1h", "+0.5h", "-10m", "+0s", "+ 10m",
	// tags
	"!!float 5", "!!int 5", "!!float 0.5", "!!bool true", "!custom full", "!env make", "!!str 90s", "!!null ~",
}

// difference is one row of README.md's table of documented differences:
// explains tells whether a file charter refuses and the schema accepts
// shows it.
type difference struct {
	name     string
	explains func([]entry) bool
}

var documented = []difference{
	{"duration above x-maximum", func(es []entry) bool {
		return slices.ContainsFunc(es, func(e entry) bool {
			n := valueNode(e.value)
			if e.k.MaxDuration == 0 || n == nil || n.Kind != yaml.ScalarNode || typeOf(n) != yStr {
				return false
			}
			d, err := time.ParseDuration(strings.Trim(n.Value, " "))
			return err != nil || d > e.k.MaxDuration // the pattern matched: an error is an overflow
		})
	}},
	{"number past binary64 precision", func(es []entry) bool {
		return slices.ContainsFunc(es, func(e entry) bool {
			n := valueNode(e.value)
			if n == nil || n.Kind != yaml.ScalarNode || (typeOf(n) != yInt && typeOf(n) != yFloat) {
				return false
			}
			d, ok := numberValue(n.Value)
			f, _ := strconv.ParseFloat(d.String(), 64)
			return ok && d.String() != strconv.FormatFloat(f, 'f', -1, 64)
		})
	}},
	{"tag other than !!str", func(es []entry) bool {
		return slices.ContainsFunc(es, func(e entry) bool { return tagged(valueNode(e.value)) })
	}},
}

// valueNode is a value text as the YAML parser reads it; nil when it
// does not parse.
func valueNode(text string) *yaml.Node {
	var doc yaml.Node
	if yaml.Unmarshal([]byte("v: "+text), &doc) != nil {
		return nil
	}
	return doc.Content[0].Content[1]
}

// tagged reports an explicit tag other than !!str on n or below it.
func tagged(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	if n.Style&yaml.TaggedStyle != 0 && n.ShortTag() != "!!str" {
		return true
	}
	return slices.ContainsFunc(n.Content, tagged)
}

// compiledSchema is the published schema, compiled by the validator.
func compiledSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := SchemaJSON()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("settings.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("settings.schema.json")
	if err != nil {
		t.Fatalf("the validator cannot read the schema: %v", err)
	}
	return sch
}

// entry is one key written with a YAML value text in one spelling: 0
// nested, 1 dotted at the top, 2 its section nested and the rest dotted.
type entry struct {
	k     Key
	value string
	spell int
}

// render writes entries as a settings file, sharing nested sections.
func render(entries []entry) string {
	type tree = map[string]any
	root := tree{}
	var order []string
	put := func(m tree, path []string, value string) {
		for _, seg := range path[:len(path)-1] {
			next, ok := m[seg].(tree)
			if !ok {
				next = tree{}
				m[seg] = next
			}
			m = next
		}
		m[path[len(path)-1]] = value
	}
	for _, e := range entries {
		segs := e.k.segments()
		var path []string
		switch e.spell {
		case 0:
			path = segs
		case 1:
			path = []string{e.k.Name}
		default:
			path = []string{segs[0], strings.Join(segs[1:], ".")}
		}
		if !slices.Contains(order, path[0]) {
			order = append(order, path[0])
		}
		put(root, path, e.value)
	}
	var b strings.Builder
	var write func(m tree, names []string, indent string)
	write = func(m tree, names []string, indent string) {
		if names == nil {
			for n := range m {
				names = append(names, n)
			}
			slices.Sort(names)
		}
		for _, n := range names {
			switch v := m[n].(type) {
			case tree:
				fmt.Fprintf(&b, "%s%s:\n", indent, n)
				write(v, nil, indent+"  ")
			case string:
				fmt.Fprintf(&b, "%s%s: %s\n", indent, n, v)
			}
		}
	}
	write(root, order, "")
	return b.String()
}

// schemaVerdict validates the file as the editor does: parsed into JSON
// values (editorValue), then the schema.
func schemaVerdict(sch *jsonschema.Schema, text string) (bool, string) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return false, "not YAML: " + err.Error()
	}
	var inst any = map[string]any{}
	if len(doc.Content) > 0 {
		var err error
		if inst, err = editorValue(doc.Content[0]); err != nil {
			return false, err.Error()
		}
	}
	if err := sch.Validate(inst); err != nil {
		return false, err.Error()
	}
	return true, ""
}

// editorValue is a node as a YAML 1.2 reader hands it to a JSON Schema
// validator: numbers as binary64 floats (JavaScript's and Python's), .nan
// and .inf as those floats, a tagged value as the YAML library decodes it.
func editorValue(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := editorValue(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[n.Content[i].Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		out := []any{}
		for _, c := range n.Content {
			v, err := editorValue(c)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	if n.Style&yaml.TaggedStyle != 0 && n.ShortTag() != "!!str" {
		var x any
		if err := n.Decode(&x); err != nil {
			return nil, fmt.Errorf("the YAML reader refuses %s %s: %v", n.Tag, n.Value, err)
		}
		data, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		return x, json.Unmarshal(data, &x)
	}
	switch typeOf(n) {
	case yNull:
		return nil, nil
	case yBool:
		return strings.EqualFold(n.Value, "true"), nil
	case yInt, yFloat:
		d, ok := numberValue(n.Value)
		if !ok {
			if strings.Contains(strings.ToLower(n.Value), "nan") {
				return math.NaN(), nil
			}
			return math.Inf(map[bool]int{true: -1, false: 1}[strings.HasPrefix(n.Value, "-")]), nil
		}
		f, _ := strconv.ParseFloat(d.String(), 64)
		return f, nil
	}
	return n.Value, nil
}

// The published patterns use only syntax ECMA-262 (ajv, yaml-language-server)
// and RE2 (Go validators) read alike: no \s, \d, \w or \b, whose sets differ.
func TestSchemaPatternsPortable(t *testing.T) {
	data, err := SchemaJSON()
	if err != nil {
		t.Fatal(err)
	}
	var walk func(v any)
	n := 0
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if p, ok := v["pattern"].(string); ok {
				n++
				for _, esc := range []string{`\s`, `\S`, `\d`, `\D`, `\w`, `\W`, `\b`, `\B`} {
					if strings.Contains(p, esc) {
						t.Errorf("pattern %q uses %s", p, esc)
					}
				}
			}
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	walk(doc)
	if n == 0 {
		t.Fatal("no pattern in the schema")
	}
}
