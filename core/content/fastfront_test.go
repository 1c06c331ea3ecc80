package content

import (
	"reflect"
	"strings"
	"testing"
)

// simpleSame fails t unless the fast path reads raw as YAML does, or
// leaves it to YAML.
func simpleSame(t *testing.T, raw []byte) (fast bool) {
	t.Helper()
	fields, ok := simpleFields(raw, 2)
	if !ok {
		return false
	}
	fm := Frontmatter{Present: true, Raw: raw}
	if p := fm.parseYAML(2); p != nil {
		t.Fatalf("fast path read %q, which YAML refuses: %s", raw, p.Message)
	}
	if !reflect.DeepEqual(fields, fm.Fields) {
		for i := range max(len(fields), len(fm.Fields)) {
			if i < len(fields) && i < len(fm.Fields) {
				t.Logf("fast %+v %+v\nyaml %+v %+v", fields[i], *fields[i].Value, fm.Fields[i], *fm.Fields[i].Value)
			}
		}
		t.Fatalf("fast path and YAML differ on %q", raw)
	}
	return true
}

func TestSimpleFieldsAsYAML(t *testing.T) {
	for raw, fast := range map[string]bool{
		"description: rule 5\nglobs: [\"src/p1/**/*.go\"]\n":     true,
		"name: x\ndescription: \"skill 1\"\ntargets: [\"*\"]\n":  true,
		"tools: [Read, Grep,  Bash(git diff) ]\nmodel: sonnet\n": true,
		"agents: []\ndescription: 'it''s'\n":                     false,
		"globs: [ \"a\" , 'b' ]\n":                               true,
		"description: Gilt überall, auch [hier] {dort}\n":        true,
		"description: Überall\n":                                 false,
		"description: a: b\n":                                    false,
		"description: a # note\n":                                false,
		"description: a#b\n":                                     true,
		"alwaysApply: true\n":                                    false,
		"description: null\n":                                    false,
		"tier: full\ntier: minimal\n":                            false,
		"description: \"a\\\"b\"\n":                              false,
		"description: x\r\n":                                     false,
		"description:\n":                                         false,
		"description:x\n":                                        false,
		"globs: [a,]\n":                                          false,
		"globs: [a, [b]]\n":                                      false,
		"globs: [\"a\"] x\n":                                     false,
		"# comment\ndescription: x\n":                            false,
		"description: x\n\ntier: full\n":                         false,
		"description: 1.5\n":                                     false,
		"description: yes\n":                                     true,
		"description: \"\"\n":                                    true,
		"argument-hint: [focus area]\n":                          true,
		"argument-hint: [file] [line]\n":                         false,
		"description: ends with colon:\n":                        false,
		"description: tab\there\n":                               false,
		"description: x   \ntier: full":                          true,
		"k" + strings.Repeat("e", 1023) + ": v\n":                true, // YAML's longest implicit key
		"k" + strings.Repeat("e", 1024) + ": v\n":                false,
		"globs: [\"ͱ\", A]\n":                                    true, // columns count characters
	} {
		if got := simpleSame(t, []byte(raw)); got != fast {
			t.Errorf("fast path taken %v for %.40q, want %v", got, raw, fast)
		}
	}
}

// FuzzSimpleValue aims the fast path's check at one value's text.
func FuzzSimpleValue(f *testing.F) {
	for _, s := range []string{"rule 5", `["src/**/*.go", b]`, "[Read, Grep]", `'it'`, `"a"`, "a: b", "x #y", "[a,]", "true", "[ ]", "a ]"} {
		f.Add("description", s)
	}
	f.Fuzz(func(t *testing.T, key, value string) {
		simpleSame(t, []byte(key+": "+value+"\ntier: full\n"))
	})
}
