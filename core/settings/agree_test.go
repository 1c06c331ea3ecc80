package settings

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"go.yaml.in/yaml/v3"
)

// The published JSON Schema and charter agree on every settings file: a
// real validator (google/jsonschema-go, 2020-12) run on the file as a
// YAML 1.2 reader sees it (the editor's view) accepts exactly the files a
// charter read accepts, both ways. The one bound no JSON Schema keyword
// can state, a duration's x-maximum, is applied beside the validator, as
// the schema publishes it. Files: every key with every value below in
// each spelling (nested, dotted at the top, dotted inside its section),
// then random files of several keys.
func TestSchemaAgrees(t *testing.T) {
	data, err := json.Marshal(JSONSchema())
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("the validator cannot read the schema: %v", err)
	}
	values := []string{
		"~", "null", "NULL", "", `""`, "true", "false", "True", "FALSE", "yes", "no", "on", "off", "Y", "n", `"true"`,
		"0", "1", "4", "-1", "4.0", "1e1", "1.5e1", "0x10", "0o17", "+3", "007", ".5", "12.5", `"12.5"`, "'4'", "500", "1_000", "0b11", "11", "20", "21", "100", "100.5", "0.6",
		"full", "FULL", "Full", `"full"`, " full", "minimal", "balanced", "ask", "on", `"off"`, "hard-stop", "advisory", "auto", "always", "never", "stop", "warn",
		"0s", "90s", "10m", "1h", "60m", "3600s", "1h0m1s", "2h", "9999999h", "1.5s", `" 90s "`, "1h30m", "0.5h", "0h0m", "90", "10 m",
		"make test", `"a\tb"`, "'x'", "!!str 5", "!!str true", "2001-12-14", "[]", "[a, b]", "[yes, 2]", `[""]`, "[a, ~]", "[[a]]", "{}", "{x: 1}",
	}
	var keys []Key
	for _, k := range Keys() {
		keys = append(keys, k)
		for _, c := range k.Choices {
			if !slices.Contains(values, c) {
				values = append(values, c)
			}
		}
	}
	accepted := 0
	check := func(entries []entry) string {
		text := render(entries)
		got := Validate("/s/settings.yaml", []byte(text)) == nil
		if got {
			accepted++
		}
		want, why := schemaVerdict(t, rs, text, entries)
		if got == want {
			return ""
		}
		return fmt.Sprintf("charter accepts %v, the schema %v (%s):\n%s", got, want, why, text)
	}
	var bad []string
	files := 0
	for _, k := range keys {
		for _, v := range values {
			for sp := range 3 {
				files++
				if msg := check([]entry{{k, v, sp}}); msg != "" {
					bad = append(bad, msg)
				}
			}
		}
	}
	rnd := rand.New(rand.NewPCG(25, 5))
	for range 2000 {
		files++
		var entries []entry
		for _, i := range rnd.Perm(len(keys))[:1+rnd.IntN(5)] {
			entries = append(entries, entry{keys[i], values[rnd.IntN(len(values))], rnd.IntN(3)})
		}
		if msg := check(entries); msg != "" {
			bad = append(bad, msg)
		}
	}
	if accepted < files/10 || accepted > files*9/10 {
		t.Errorf("%d of %d files accepted: the values no longer probe both sides", accepted, files)
	}
	if len(bad) > 0 {
		t.Errorf("%d of %d files disagree; the first:\n%s", len(bad), files, strings.Join(bad[:min(len(bad), 15)], "\n---\n"))
	}
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

// schemaVerdict validates the file as the editor does: parsed by the YAML
// 1.2 core schema into JSON values, then the schema, then x-maximum.
func schemaVerdict(t *testing.T, rs *jsonschema.Resolved, text string, entries []entry) (bool, string) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return false, "not YAML: " + err.Error()
	}
	var inst any = map[string]any{}
	if len(doc.Content) > 0 {
		inst = editorValue(t, doc.Content[0])
	}
	if err := rs.Validate(inst); err != nil {
		return false, err.Error()
	}
	props := propertyByKey()
	for _, e := range entries {
		maxText, ok := props[e.k.Name]["x-maximum"].(string)
		if !ok {
			continue
		}
		var n yaml.Node
		if yaml.Unmarshal([]byte("v: "+e.value), &n) != nil {
			continue
		}
		v := n.Content[0].Content[1]
		if v.Kind != yaml.ScalarNode || typeOf(v) != yStr {
			continue // the validator judged it
		}
		limit, _ := time.ParseDuration(maxText)
		d, err := time.ParseDuration(strings.TrimSpace(v.Value))
		if err != nil || d > limit { // the pattern matched: an error is an overflow
			return false, "above x-maximum " + maxText
		}
	}
	return true, ""
}

// editorValue is a node as a YAML 1.2 reader hands it to a JSON Schema
// validator.
func editorValue(t *testing.T, n *yaml.Node) any {
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = editorValue(t, n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		out := []any{}
		for _, c := range n.Content {
			out = append(out, editorValue(t, c))
		}
		return out
	}
	switch typeOf(n) {
	case yNull:
		return nil
	case yBool:
		return strings.EqualFold(n.Value, "true")
	case yInt, yFloat:
		d, ok := numberValue(n.Value)
		if !ok {
			t.Fatalf("%q: .inf and .nan are not in the generated values", n.Value)
		}
		var x any
		if err := json.Unmarshal([]byte(d.String()), &x); err != nil {
			t.Fatal(err)
		}
		return x
	}
	return n.Value
}

func propertyByKey() map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, k := range Keys() {
		out[k.Name] = property(k)
	}
	return out
}
