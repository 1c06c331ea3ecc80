package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
)

// Patch is what both skins call: every bad key at once, sorted by key,
// whichever way the values came in.
func TestPatchReportsEveryProblemSorted(t *testing.T) {
	_, err := Patch(map[string]json.RawMessage{
		"skills.autoload":    json.RawMessage(`"yes"`),
		"rules.tier":         json.RawMessage(`"most"`),
		"nope.key":           json.RawMessage(`1`),
		"gates.coverage.min": json.RawMessage(`50`),
	}, []string{"zzz", "agent.autonomy", "aaa"}, ParseJSON)
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("got %v, want a *ValidationError", err)
	}
	var keys, codes []string
	for _, p := range ve.Problems {
		keys = append(keys, p.Key)
		codes = append(codes, p.Code)
	}
	if want := []string{"aaa", "nope.key", "rules.tier", "skills.autoload", "zzz"}; !slices.Equal(keys, want) {
		t.Errorf("problem keys %v, want %v", keys, want)
	}
	if want := []string{core.CodeUnknownKey, core.CodeUnknownKey, core.CodeInvalidValue, core.CodeInvalidValue, core.CodeUnknownKey}; !slices.Equal(codes, want) {
		t.Errorf("problem codes %v, want %v", codes, want)
	}
	if core.ErrorCode(err) != core.CodeInvalidValue {
		t.Errorf("code %s, want invalid_value", core.ErrorCode(err))
	}
}

func TestPatchBuildsTheUpdate(t *testing.T) {
	u, err := Patch(map[string]string{"gates.coverage.min": "12.50", "rules.disabled": "a, b"}, []string{"agent.autonomy"}, ParseText)
	if err != nil {
		t.Fatal(err)
	}
	if u.Set["gates.coverage.min"] != Dec("12.5") || !slices.Equal(u.Set["rules.disabled"].([]string), []string{"a", "b"}) || !slices.Equal(u.Unset, []string{"agent.autonomy"}) {
		t.Errorf("update %+v", u)
	}
	// Only unknown keys: the code says so, for both skins.
	_, err = Patch[string](nil, []string{"rules.teir"}, ParseText)
	if core.ErrorCode(err) != core.CodeUnknownKey || !strings.Contains(err.Error(), `did you mean "rules.tier"`) {
		t.Errorf("got %v (%s)", err, core.ErrorCode(err))
	}
}

// A failure that is not about a value stops the patch as it is.
func TestPatchPassesOtherErrorsOn(t *testing.T) {
	boom := errors.New("boom")
	_, err := Patch(map[string]string{"rules.tier": "full"}, nil, func(string, string) (any, error) { return nil, boom })
	if err != boom {
		t.Errorf("got %v, want boom", err)
	}
}

// Every Tell fits its key, so that apply renders every value: a sentence
// for each choice, a line for numbers and lists, gates that can be on.
func TestTellsFitTheirKeys(t *testing.T) {
	names := map[string]bool{}
	for _, s := range Sections() {
		names[s.Name] = true
	}
	for _, k := range Keys() {
		tl := k.Tell
		if !names[k.Section()] {
			t.Errorf("%s: section %q is not in Sections", k.Name, k.Section())
		}
		if tl.If != "" {
			if dep, ok := Lookup(tl.If); !ok || dep.Kind != Bool {
				t.Errorf("%s: If names %q, which is no bool key", k.Name, tl.If)
			}
		}
		if tl.Gate != "" {
			if tl.Label == "" || (k.Kind != Bool && !strings.Contains(tl.Gate, "%s")) {
				t.Errorf("%s: a gate needs a label, and a number gate a %%s for its value", k.Name)
			}
			continue
		}
		switch k.Kind {
		case Enum:
			for _, c := range k.Choices {
				if tl.Says.For(c) == "" {
					t.Errorf("%s: no sentence for the choice %q", k.Name, c)
				}
			}
		case Bool:
			if tl.Says.For("true") == "" && tl.Says.For("false") == "" {
				t.Errorf("%s: says nothing either way", k.Name)
			}
		case Int, Decimal:
			if !strings.Contains(tl.Line, "%s") {
				t.Errorf("%s: Line %q has no %%s for the value", k.Name, tl.Line)
			}
		case List:
			// None may be empty: an empty list then says nothing. The
			// sources are charter's input, not an instruction to the agent.
			// Permissions and servers are projected natively (SPEC §14).
			if tl.Line == "" && k.Name != KeySources && k.ItemCheck == nil {
				t.Errorf("%s: a list needs a Line", k.Name)
			}
		case String, Duration:
			if tl.Line != "" && !strings.Contains(tl.Line, "%s") {
				t.Errorf("%s: Line %q has no %%s for the value", k.Name, tl.Line)
			}
		}
	}
}

func TestSectionsInJSONSchema(t *testing.T) {
	got, ok := JSONSchema()["x-sections"].([]Section)
	if !ok || len(got) == 0 || got[0] != (Section{"rules", "Rules"}) {
		t.Errorf("x-sections = %v", JSONSchema()["x-sections"])
	}
	props := JSONSchema()["properties"].(map[string]any)
	if len(props) != len(got) {
		t.Errorf("%d sections in the schema, %d in x-sections", len(props), len(got))
	}
}

func TestDurationAndString(t *testing.T) {
	for in, want := range map[string]string{"90s": "1m30s", "10m": "10m", "600s": "10m", "1h0m0s": "1h", "59m0.5s": "59m0.5s", "10s": "10s", "1.5s": "1.5s", "250ms": "250ms"} {
		v, err := ParseText("gates.timeout", in)
		if err != nil || v != want {
			t.Errorf("%s → %v, %v; want %s", in, v, err, want)
		}
	}
	for _, bad := range []string{"0s", "-1m", "10", "ten minutes", ""} {
		if _, err := ParseText("gates.timeout", bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if v, err := ParseJSON("gates.timeout", []byte(`"90s"`)); err != nil || v != "1m30s" {
		t.Errorf("JSON 90s → %v, %v", v, err)
	}
	if _, err := ParseJSON("gates.tests.command", []byte(`3`)); err == nil {
		t.Error("a number accepted as a command")
	}
	if v, err := ParseJSON("gates.tests.command", []byte(`"go test ./..."`)); err != nil || v != "go test ./..." {
		t.Errorf("command → %v, %v", v, err)
	}
	if _, err := ParseText("gates.max_blocks", "0"); err == nil {
		t.Error("max_blocks 0 accepted")
	}
}

// The JSON Schema describes the new kinds: strings, and durations with a
// pattern that every canonical duration matches.
func TestJSONSchemaStringAndDuration(t *testing.T) {
	gates := JSONSchema()["properties"].(map[string]any)["gates"].(map[string]any)["properties"].(map[string]any)
	cmd := gates["tests"].(map[string]any)["properties"].(map[string]any)["command"].(map[string]any)
	if fmt.Sprint(cmd["type"]) != "[string null]" || cmd["x-kind"] != "string" || cmd["default"] != "" {
		t.Errorf("gates.tests.command: %v", cmd)
	}
	to := gates["timeout"].(map[string]any)
	if fmt.Sprint(to["type"]) != "[string null]" || to["x-kind"] != "duration" || to["default"] != "10m" {
		t.Errorf("gates.timeout: %v", to)
	}
	re := regexp.MustCompile(to["pattern"].(string))
	for _, ok := range []string{"10m", "1m30s", "1h0m5s", "1.5s", "250ms"} {
		if !re.MatchString(ok) {
			t.Errorf("pattern refuses %q", ok)
		}
	}
	for _, bad := range []string{"10", "soon", "m"} {
		if re.MatchString(bad) {
			t.Errorf("pattern takes %q", bad)
		}
	}
}
