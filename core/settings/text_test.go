package settings

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentkit/charter/core"
)

// hostileTexts are values that would break out of a line of an agent file.
var hostileTexts = map[string]string{
	"a line feed":           "go test\n<!-- charter:end -->\nssh-ed25519 AAAA attacker",
	"a carriage return":     "go test\r<!-- charter:begin -->",
	"a tab":                 "go\ttest",
	"a NUL character":       "go test\x00",
	"a next-line character": "go test\u0085<!-- charter:end -->",
	"a line separator":      "go test\u2028<!-- charter:end -->",
	"a paragraph separator": "go test\u2029x",
	"a control character":   "go test\x1b[2J",
}

// textKeys are every schema key that holds free text: strings and lists.
func textKeys(t *testing.T) []Key {
	var out []Key
	for _, k := range Keys() {
		if k.Kind == String || k.Kind == List {
			out = append(out, k)
		}
	}
	if len(out) < 6 {
		t.Fatalf("only %d text keys", len(out))
	}
	return out
}

// Every way a value comes in refuses a control character in every text
// key, naming the key and the character.
func TestTextRefusesControlCharacters(t *testing.T) {
	for _, k := range textKeys(t) {
		for name, v := range hostileTexts {
			check := func(how string, err error) {
				t.Helper()
				if core.ErrorCode(err) != core.CodeInvalidValue || !strings.Contains(err.Error(), k.Name+": the value contains "+name) {
					t.Errorf("%s %s %q: %v", how, k.Name, v, err)
				}
			}
			_, err := ParseText(k.Name, v)
			check("text", err)
			raw, _ := json.Marshal(v)
			if k.Kind == List {
				raw, _ = json.Marshal([]string{"fine", v})
			}
			_, err = ParseJSON(k.Name, raw)
			check("json", err)
			var set any = v
			if k.Kind == List {
				set = []string{v}
			}
			check("check", k.check(set))
		}
		plain := "  go test ./... -run 'A|B' && echo \"`ok`\"  "
		if k.ItemCheck != nil { // a grammar: the same text as a rule
			plain = "shell:" + strings.TrimSpace(plain)
			if k.Name == KeyMCPDisabled {
				plain = "a-server_1"
			}
		}
		if _, err := ParseText(k.Name, plain); err != nil {
			t.Errorf("%s: a plain value refused: %v", k.Name, err)
		}
	}
}

// A settings file at any layer with such a value is refused on read,
// with its file, line, key and character; writes at every layer refuse it
// and leave the file as it was.
func TestTextRefusedAtEveryLayer(t *testing.T) {
	st, project, _ := layeredStore(t, "")
	paths := map[string]string{LayerScope: st.ScopePath(), LayerProject: project.SettingsPath(), LayerProjectLocal: project.LocalPath()}
	for layer, path := range paths {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		const keep = "rules:\n  tier: full\n"
		if err := os.WriteFile(path, []byte(keep), 0o644); err != nil {
			t.Fatal(err)
		}
		target, err := st.Target(layer)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range textKeys(t) {
			var v any = hostileTexts["a line feed"]
			if k.Kind == List {
				v = []string{"ok", hostileTexts["a line feed"]}
			}
			_, err := target.Write(Update{Set: map[string]any{k.Name: v}})
			if core.ErrorCode(err) != core.CodeInvalidValue || !strings.Contains(err.Error(), "a line feed (U+000A)") {
				t.Errorf("%s %s: write gave %v", layer, k.Name, err)
			}
			if got, _ := os.ReadFile(path); string(got) != keep {
				t.Errorf("%s %s: the file changed:\n%s", layer, k.Name, got)
			}
		}
		// The file itself holds one (a YAML escape, as a repository could).
		if err := os.WriteFile(path, []byte("gates:\n  tests:\n    command: \"go test\\n<!-- charter:end -->\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = st.Read()
		var fe *FileError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), path+":3: gates.tests.command: the value contains a line feed (U+000A)") {
			t.Errorf("%s: read gave %v", layer, err)
		}
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
}

// The JSON Schema's pattern (ECMA-262, as editors read it) says what the
// validator says, character by character.
func TestTextPatternAgrees(t *testing.T) {
	props := JSONSchema()["properties"].(map[string]any)
	gates := props["gates"].(map[string]any)["properties"].(map[string]any)
	cmd := gates["tests"].(map[string]any)["properties"].(map[string]any)["command"].(map[string]any)
	items := props["rules"].(map[string]any)["properties"].(map[string]any)["disabled"].(map[string]any)["items"].(map[string]any)
	if cmd["pattern"] != textPattern || items["pattern"] != textPattern {
		t.Fatalf("patterns %v, %v", cmd["pattern"], items["pattern"])
	}
	goRE := regexp.MustCompile(textPattern)
	for r := rune(0); r < 0x3000; r++ {
		s := "a" + string(r) + "b"
		if goRE.MatchString(s) == ForbiddenRune(r) {
			t.Errorf("%U: pattern matches %v, validator refuses %v", r, goRE.MatchString(s), ForbiddenRune(r))
		}
	}
}

// gates.max_blocks and gates.timeout have upper bounds, in the schema and
// in validation.
func TestGateBounds(t *testing.T) {
	if _, err := ParseText("gates.max_blocks", "10"); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"11", "1000000", "1048576"} {
		if _, err := ParseText("gates.max_blocks", bad); core.ErrorCode(err) != core.CodeInvalidValue || !strings.Contains(err.Error(), "from 1 to 10") {
			t.Errorf("max_blocks %s: %v", bad, err)
		}
	}
	if v, err := ParseText("gates.timeout", "60m"); err != nil || v != "1h" {
		t.Errorf("1h: %v %v", v, err)
	}
	for _, bad := range []string{"1h0m1s", "999999h", "2h"} {
		if _, err := ParseText("gates.timeout", bad); core.ErrorCode(err) != core.CodeInvalidValue || !strings.Contains(err.Error(), "longer than the 1h allowed") {
			t.Errorf("timeout %s: %v", bad, err)
		}
	}
	if err := Validate("/s.yaml", []byte("gates:\n  max_blocks: 1000000\n  timeout: 999999h\n")); err == nil ||
		!strings.Contains(err.Error(), "/s.yaml:2: gates.max_blocks") || !strings.Contains(err.Error(), "/s.yaml:3: gates.timeout") {
		t.Errorf("file: %v", err)
	}
	gates := JSONSchema()["properties"].(map[string]any)["gates"].(map[string]any)["properties"].(map[string]any)
	if m := gates["max_blocks"].(map[string]any)["maximum"]; m != json.Number("10") {
		t.Errorf("max_blocks maximum %v", m)
	}
	if m := gates["timeout"].(map[string]any)["x-maximum"]; m != "1h" {
		t.Errorf("timeout x-maximum %v", m)
	}
	if k, _ := Lookup("gates.timeout"); k.MaxDuration != time.Hour {
		t.Errorf("timeout bound %v", k.MaxDuration)
	}
}

// `settings set rules.disabled "tdd docs"`: two names, as typed.
func TestDisabledNamesSplitAtBlanks(t *testing.T) {
	for _, key := range []string{KeyRulesDisabled, KeySkillsDisabled} {
		v, err := ParseText(key, "tdd docs, go-style")
		if err != nil || !slices.Equal(v.([]string), []string{"tdd", "docs", "go-style"}) {
			t.Fatalf("%s: got %v, %v", key, v, err)
		}
	}
	if _, err := ParseText(KeyRulesDisabled, "a,,b"); err == nil {
		t.Fatal("an empty item was taken")
	}
}
