package settings

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func decode(t *testing.T, text string) *yamlFile {
	t.Helper()
	f, p := decodeFile([]byte(text))
	if p != nil {
		t.Fatalf("decode %q: %v", text, p)
	}
	return f
}

func encode(t *testing.T, f *yamlFile) string {
	t.Helper()
	out, err := f.encode()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func segs(key string) []string { return strings.Split(key, ".") }

func TestDecodeEncodeKeepsLineEndsAndBOM(t *testing.T) {
	for name, tc := range map[string]struct {
		in        string
		crlf, bom bool
	}{
		"lf":           {"rules:\n  tier: full\n", false, false},
		"crlf":         {"rules:\r\n  tier: full # c\r\n", true, false},
		"bom":          {utf8BOM + "rules:\n  tier: full\n", false, true},
		"bom crlf":     {utf8BOM + "# c\r\nrules:\r\n  tier: full\r\n", true, true},
		"comment only": {"# only this\r\n", true, false},
	} {
		t.Run(name, func(t *testing.T) {
			f := decode(t, tc.in)
			if f.crlf != tc.crlf || f.bom != tc.bom {
				t.Fatalf("crlf=%v bom=%v", f.crlf, f.bom)
			}
			if got := encode(t, f); got != tc.in {
				t.Fatalf("round trip:\n%q\nwant\n%q", got, tc.in)
			}
		})
	}
}

func TestDecodeRefuses(t *testing.T) {
	for name, tc := range map[string]struct {
		in   string
		line int
		msg  string
	}{
		"two documents": {"a: 1\n---\nb: 2\n", 2, "second YAML document"},
		"top level":     {"- a\n", 1, "top level must be a mapping"},
		"syntax":        {"a: [1\n", 1, "a list opened with [ is not closed with ]"},
		"utf16":         {"\xff\xfea\x00", 1, "UTF-16"},
	} {
		t.Run(name, func(t *testing.T) {
			_, p := decodeFile([]byte(tc.in))
			if p == nil || p.Line != tc.line || !strings.Contains(p.Message, tc.msg) {
				t.Fatalf("got %+v", p)
			}
		})
	}
}

func TestFlattenFindsKeysDefinedTwice(t *testing.T) {
	for name, tc := range map[string]struct {
		in    string
		key   string
		lines [2]int
	}{
		"same mapping":       {"rules:\n  tier: full\n  tier: minimal\n", "rules.tier", [2]int{2, 3}},
		"top level":          {"rules:\n  tier: full\ngates: {}\nrules:\n  disabled: []\n", "rules", [2]int{1, 4}},
		"depth three":        {"commands:\n  suggestions:\n    enabled: true\n    enabled: false\n", "commands.suggestions.enabled", [2]int{3, 4}},
		"dotted and nested":  {"rules.tier: full\nrules:\n  tier: minimal\n", "rules.tier", [2]int{1, 3}},
		"half dotted":        {"commands.suggestions:\n  enabled: true\ncommands:\n  suggestions.enabled: false\n", "commands.suggestions.enabled", [2]int{2, 4}},
		"unknown key":        {"custom:\n  a: 1\n  a: 2\n", "custom.a", [2]int{2, 3}},
		"inside a list":      {"custom:\n  - a: 1\n    a: 2\n", "custom[0].a", [2]int{2, 3}},
		"value and parent":   {"rules: 5\nrules.tier: full\n", "rules", [2]int{1, 2}},
		"value under dotted": {"commands.suggestions: off\ncommands:\n  suggestions:\n    enabled: true\n", "commands.suggestions", [2]int{1, 4}},
	} {
		t.Run(name, func(t *testing.T) {
			_, problems := flatten(decode(t, tc.in).doc)
			if len(problems) != 1 {
				t.Fatalf("problems %+v", problems)
			}
			p := problems[0]
			want := []string{"line " + strconv.Itoa(tc.lines[0]), "line " + strconv.Itoa(tc.lines[1])}
			if p.Key != tc.key || p.Line != tc.lines[1] || !strings.Contains(p.Message, want[0]) || !strings.Contains(p.Message, want[1]) {
				t.Fatalf("got %+v, want key %s on lines %v", p, tc.key, tc.lines)
			}
		})
	}
	// Merging spellings of different keys is fine, as are empty sections.
	for _, ok := range []string{
		"rules.tier: full\nrules:\n  disabled: [a]\n",
		"rules: {}\nrules.tier: full\n",
		"rules:\nrules.tier: full\n",
		"a: 1\nb: 1\n",
	} {
		if _, problems := flatten(decode(t, ok).doc); len(problems) != 0 {
			t.Errorf("%q: %+v", ok, problems)
		}
	}
}

func TestSetValue(t *testing.T) {
	for name, tc := range map[string]struct{ in, key, want string }{
		"add nested":          {"", "rules.tier", "rules:\n  tier: full\n"},
		"replace nested":      {"rules:\n  tier: minimal # note\n", "rules.tier", "rules:\n  tier: full # note\n"},
		"replace dotted":      {"rules.tier: minimal\n", "rules.tier", "rules.tier: full\n"},
		"into dotted section": {"commands.suggestions:\n  enabled: true\n", "commands.suggestions.max_options", "commands.suggestions:\n  enabled: true\n  max_options: full\n"},
		"into half dotted":    {"commands:\n  suggestions.enabled: true\n", "commands.suggestions.enabled", "commands:\n  suggestions.enabled: full\n"},
		"empty section":       {"rules: # later\nx: 1\n", "rules.tier", "rules: # later\n  tier: full\nx: 1\n"},
		"empty mapping":       {"rules: {}\n", "rules.tier", "rules: {tier: full}\n"},
	} {
		t.Run(name, func(t *testing.T) {
			f := decode(t, tc.in)
			if err := setValue(f.root(), "", segs(tc.key), toNode("full")); err != nil {
				t.Fatal(err)
			}
			if got := encode(t, f); got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestSetValueNeverReplacesAValue(t *testing.T) {
	for name, tc := range map[string]struct {
		in, key, parent string
		line            int
	}{
		"scalar":        {"# top\nrules: 5 # my note\n", "rules.tier", "rules", 2},
		"list":          {"commands: [a, b]\n", "commands.suggestions.enabled", "commands", 1},
		"deep":          {"commands:\n  suggestions: off\n", "commands.suggestions.enabled", "commands.suggestions", 2},
		"dotted scalar": {"commands.suggestions: off\n", "commands.suggestions.enabled", "commands.suggestions", 1},
		"alias":         {"base: &b {tier: full}\nrules: *b\n", "rules.tier", "rules", 2},
	} {
		t.Run(name, func(t *testing.T) {
			f := decode(t, tc.in)
			err := setValue(f.root(), "", segs(tc.key), toNode("full"))
			var owned *ownedValueError
			if !errors.As(err, &owned) || owned.Parent != tc.parent || owned.Line != tc.line {
				t.Fatalf("got %v", err)
			}
			if got := encode(t, f); got != tc.in {
				t.Fatalf("the tree changed:\n%s", got)
			}
		})
	}
}

func TestUnsetValueKeepsTheCommentsAround(t *testing.T) {
	for name, tc := range map[string]struct{ in, key, want string }{
		"nested": {"rules:\n  # about tier\n  tier: full # gone with the line\n  disabled: [a]\n", "rules.tier",
			"rules:\n  # about tier\n  disabled: [a]\n"},
		"empty section goes, its comments stay": {"# head\nrules: # my rules\n  tier: full\n  # end of rules\ngates:\n  on_failure: ask\n", "rules.tier",
			"# head\n# my rules\n# end of rules\ngates:\n  on_failure: ask\n"},
		"last key": {"gates:\n  on_failure: ask\nrules:\n  tier: full\n# foot\n", "rules.tier",
			"gates:\n  on_failure: ask\n# foot\n"},
		"dotted":          {"rules.tier: full\nx: 1\n", "rules.tier", "x: 1\n"},
		"only comments":   {"# keep me\nrules:\n  tier: full\n", "rules.tier", "# keep me\n"},
		"absent":          {"x: 1\n", "rules.tier", "x: 1\n"},
		"into a scalar":   {"rules: 5\n", "rules.tier", "rules: 5\n"},
		"half dotted":     {"commands:\n  suggestions.enabled: true\n  x: 1\n", "commands.suggestions.enabled", "commands:\n  x: 1\n"},
		"everything goes": {"rules:\n  tier: full\n", "rules.tier", ""},
	} {
		t.Run(name, func(t *testing.T) {
			f := decode(t, tc.in)
			unsetValue(f.root(), segs(tc.key))
			if got := encode(t, f); got != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestFromNode(t *testing.T) {
	k, _ := Lookup("rules.tier")
	if _, err := fromNode(k, &yaml.Node{Kind: yaml.MappingNode}); err == nil || !strings.Contains(err.Error(), "not a mapping") {
		t.Fatalf("%v", err)
	}
	_, problems := flatten(decode(t, "mine: &m full\nrules:\n  tier: *m\n").doc)
	if len(problems) != 1 || problems[0].Line != 3 || problems[0].Message != aliasMessage {
		t.Fatalf("an alias: %v", problems)
	}
}

// encodeWhole is the document written by one encoder call.
func encodeWhole(t testing.TB, doc *yaml.Node) string {
	var buf strings.Builder
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	enc.Close()
	return buf.String()
}

// A document written in parts reads exactly as written whole: the parts
// are cut only where no comment joins two keys.
func FuzzChunks(f *testing.F) {
	for _, s := range []string{
		"a: 1\nb: 2\nc: 3\n",
		"# head\n\na: 1 # one\n# about b\nb: 2\nc:\n  d: [x, y] # list\n  # foot of c\ne: 5\n# foot\n",
		"a: &x {b: 1}\nc: *x\nd: |\n  text\n  # not a comment\ne: 'q'\n",
		"a:\n  - 1\n  - b: 2\n    # inner foot\nc: 3\n\n\nd: 4\n",
		"a: 1\n\n# lone\n\nb: 2\nc: 3\n",
		"x: 1 # a\ny: 2 # b\nz: 3 # c\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, p := decodeFile(data)
		if p != nil || len(file.doc.Content) == 0 {
			return
		}
		whole := encodeWhole(t, file.doc)
		var parts strings.Builder
		for _, d := range chunks(file.doc, 1) {
			parts.WriteString(encodeWhole(t, d))
		}
		if parts.String() != whole {
			t.Fatalf("in parts:\n%s\nwhole:\n%s", parts.String(), whole)
		}
	})
}

// No bytes are decoded without the parser, into what the parser makes of
// a file with nothing in it.
func TestDecodeEmptyAsParser(t *testing.T) {
	parsed := decode(t, "\n")
	for _, in := range [][]byte{nil, {}} {
		f, p := decodeFile(in)
		if p != nil || !reflect.DeepEqual(f, parsed) {
			t.Fatalf("decode %q: %+v %v, the parser: %+v", in, f, p, parsed)
		}
		if out, err := f.encode(); err != nil || len(out) != 0 {
			t.Fatalf("encode of an empty file: %q %v", out, err)
		}
	}
}
