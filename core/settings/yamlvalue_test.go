package settings

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The YAML 1.2 core schema's examples (spec §10.3.2) and the forms yaml.v3
// reads differently from it (1_000, 0b11, a date: text to the editor).
func TestTypeOf(t *testing.T) {
	for text, want := range map[string]scalarType{
		"~": yNull, "null": yNull, "NULL": yNull, "": yNull, "true": yBool, "False": yBool,
		"yes": yStr, "on": yStr, "0": yInt, "-19": yInt, "0o14": yInt, "0xC": yInt, "+12": yInt,
		"1.": yFloat, "-1.5e3": yFloat, ".5": yFloat, ".inf": yFloat, ".NaN": yFloat,
		"1_000": yStr, "0b11": yStr, "2001-12-14": yStr, "1:20": yStr, `"4"`: yStr, "!!str 4": yStr,
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte("v: "+text), &doc); err != nil {
			t.Fatal(err)
		}
		if got := typeOf(doc.Content[0].Content[1]); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
	for text, want := range map[string]string{"0x10": "16", "0o17": "15", "1e1": "10", "4.0": "4", "+3": "3", ".5": "0.5"} {
		if d, ok := numberValue(text); !ok || d.String() != want {
			t.Errorf("%s: %v %v, want %s", text, d, ok, want)
		}
	}
}

// Validate (which settings edit runs on each round) refuses aliases and
// merge keys, naming the line.
func TestValidateRefusesAliases(t *testing.T) {
	err := Validate("/s.yaml", []byte("a: &x\n  required: false\ngates:\n  tests:\n    <<: *x\n"))
	if err == nil || !strings.Contains(err.Error(), "/s.yaml:5: "+aliasMessage) {
		t.Fatalf("%v", err)
	}
}
