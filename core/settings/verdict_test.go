package settings

import (
	"strings"
	"testing"
)

// What a settings file holds gets the verdict its published schema gives
// (issue 38): text is not trimmed of control characters, a signed
// duration is read as Go reads it, tags other than !!str and numbers past
// binary64 are refused, each naming the key and line.
func TestFileVerdicts(t *testing.T) {
	for _, c := range []struct {
		file, want string // want "": accepted
	}{
		{"gates:\n  tests:\n    command: \"\\tmake test\"\n", "gates.tests.command: the value contains a tab (U+0009) at character 1"},
		{"gates.tests.command: \"make test\\r\"\n", "a carriage return (U+000D)"},
		{"gates.lint.command: \"go vet\\N\"\n", "a next-line character (U+0085)"},
		{"gates.lint.command: \"\\Lgo vet\"\n", "a line separator (U+2028)"},
		{"gates.timeout: \"\\t90s\"\n", "gates.timeout: the value contains a tab (U+0009) at character 1: a setting is one line of text, without control characters (write the duration alone"},
		{"gates.timeout: \"90s\\_\"\n", "is not a duration"},
		{"gates.tests.command: \" make test \"\n", ""},
		{"gates.timeout: +10m\n", ""},
		{"gates.timeout: \" +1h \"\n", ""},
		{"gates.max_blocks: !!float 5\n", "the tag !!float before 5 is read differently by different YAML readers"},
		{"rules:\n  tier: !custom full\n", "rules.tier: the tag !custom before full"},
		{"rules.disabled: [a, !!int 5]\n", "the tag !!int"},
		{"rules.tier: !!str full\n", ""},
		{"cost.budget.daily: 1e400\n", "past the largest number"},
		{"cost.budget.daily: .inf\n", "is not a number"},
		{"gates.coverage.min: .nan\n", "is not a number"},
	} {
		err := Validate("/s/settings.yaml", []byte(c.file))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.file, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "/s/settings.yaml:")):
			t.Errorf("%q: %v, want %q", c.file, err, c.want)
		}
	}
	k, _ := Lookup("gates.timeout")
	if v, err := fromNode(k, valueNode("+10m")); err != nil || v != "10m" {
		t.Errorf("+10m: %v %v", v, err)
	}
}

// On the command line and over HTTP too, a tab or line break at either
// end of text is refused, not trimmed away; spaces go.
func TestTextEndsRefused(t *testing.T) {
	for _, s := range []string{"make test\t", "\nmake test", "make test\u2028", "90s\t"} {
		key := "gates.tests.command"
		if strings.HasPrefix(s, "90s") {
			key = "gates.timeout"
		}
		if _, err := ParseText(key, s); err == nil || !strings.Contains(err.Error(), "without control characters") {
			t.Errorf("%q: %v", s, err)
		}
		if _, err := ParseJSON(key, []byte(`"`+strings.NewReplacer("\t", `\t`, "\n", `\n`).Replace(s)+`"`)); err == nil {
			t.Errorf("JSON %q accepted", s)
		}
	}
	if v, err := ParseText("gates.tests.command", "  make test  "); err != nil || v != "make test" {
		t.Errorf("spaces: %v %v", v, err)
	}
}
