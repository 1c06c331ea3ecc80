package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
)

const testPolicyPath = "/etc/agentkit/charter/policy.yaml"

// policySystem is a System with exactly environ: these tests are of the
// policy path without the pinned one.
func policySystem(t *testing.T, fs afero.Fs, environ ...string) *core.System {
	return coretest.New(t, coretest.Fs(fs), coretest.Wd("/work"), coretest.Without("HOME", "PATH", PolicyVar), coretest.Env(environ...)).Sys
}

func mustPolicy(t *testing.T, text string) *Policy {
	t.Helper()
	p, err := ParsePolicy(testPolicyPath, []byte(text))
	if err != nil {
		t.Fatalf("parse policy:\n%s\n%v", text, err)
	}
	return p
}

func TestPolicyPath(t *testing.T) {
	cases := []struct {
		name    string
		env     []string
		goos    string
		windows bool
		want    string
	}{
		{"linux", nil, "linux", false, "/etc/agentkit/charter/policy.yaml"},
		{"other unix", nil, "freebsd", false, "/etc/agentkit/charter/policy.yaml"},
		{"macos", nil, "darwin", false, "/Library/Application Support/agentkit/charter/policy.yaml"},
		{"windows", []string{`ProgramData=D:\PD`}, "windows", true, `D:\PD\agentkit\charter\policy.yaml`},
		{"windows without ProgramData", nil, "windows", true, `C:\ProgramData\agentkit\charter\policy.yaml`},
		{"env", []string{"AGENTKIT_POLICY_FILE=/srv/p.yaml"}, "linux", false, "/srv/p.yaml"},
		{"env, normalised", []string{"AGENTKIT_POLICY_FILE= ~/x/../p.yaml "}, "darwin", false, "/home/u/p.yaml"},
		{"relative env", []string{"AGENTKIT_POLICY_FILE=p.yaml"}, "linux", false, "/work/p.yaml"},
		{"blank env counts as unset", []string{"AGENTKIT_POLICY_FILE=  "}, "linux", false, "/etc/agentkit/charter/policy.yaml"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sys := policySystem(t, afero.NewMemMapFs(), append(c.env, "HOME=/home/u")...)
			sys.Paths.Windows = c.windows
			got, err := policyPath(sys, c.goos)
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestLoadPolicy(t *testing.T) {
	fs := afero.NewMemMapFs()
	sys := policySystem(t, fs, "HOME=/home/u", "AGENTKIT_POLICY_FILE=/p/policy.yaml")
	p, err := LoadPolicy(sys)
	if err != nil || p != nil {
		t.Fatalf("absent policy: %+v, %v", p, err)
	}
	if err := afero.WriteFile(fs, "/p/policy.yaml", []byte("lock:\n  rules:\n    tier: full\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err = LoadPolicy(sys)
	if err != nil || p == nil || p.Path != "/p/policy.yaml" {
		t.Fatalf("got %+v, %v", p, err)
	}
	if v, ok := p.Locked("rules.tier"); !ok || v != "full" {
		t.Fatalf("lock: %v %v", v, ok)
	}

	// A policy that cannot be read is an error, never no policy.
	sys = policySystem(t, afero.NewOsFs(), "HOME=/home/u", "AGENTKIT_POLICY_FILE="+t.TempDir())
	if p, err := LoadPolicy(sys); err == nil || !strings.Contains(err.Error(), "read policy") {
		t.Fatalf("a directory as policy: %+v, %v", p, err)
	}

	fs2 := afero.NewMemMapFs()
	afero.WriteFile(fs2, "/p.yaml", []byte("lokc:\n  rules.tier: full\n"), 0o644)
	_, err = LoadPolicy(policySystem(t, fs2, "AGENTKIT_POLICY_FILE=/p.yaml"))
	var me *MalformedPolicyError
	if !errors.As(err, &me) || me.Path != "/p.yaml" {
		t.Fatalf("malformed: %v", err)
	}
}

func TestPolicyEmpty(t *testing.T) {
	for _, text := range []string{"", "# nothing yet\n", "lock:\n", "lock: ~\nminimum: {}\nmaximum:\n  rules: {}\n", "~\n"} {
		p := mustPolicy(t, text)
		if p == nil || len(p.Keys()) != 0 {
			t.Fatalf("%q: %+v", text, p)
		}
		if v, by := p.Apply("rules.tier", "minimal"); by || v != "minimal" {
			t.Fatalf("%q: empty policy changed a value", text)
		}
	}
}

type wantProblem struct {
	line int
	key  string
	msg  string
}

func TestPolicyMalformed(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []wantProblem
	}{
		{"unknown section", "lock:\n  rules.tier: full\nlokc:\n  gates.tests.required: true\n",
			[]wantProblem{{3, "lokc", `unknown section "lokc": use lock, minimum, maximum, sources, permissions or mcp`}}},
		{"top level is a list", "- lock\n", []wantProblem{{1, "", "top level must be a mapping"}}},
		{"section is a value", "lock: full\n", []wantProblem{{1, "lock", "section lock must be a mapping"}}},
		{"unknown nested key", "lock:\n  rules:\n    tierr: full\n",
			[]wantProblem{{3, "rules.tierr", `lock: unknown setting "rules.tierr": did you mean "rules.tier"?`}}},
		{"unknown dotted key", "minimum:\n  gates.coverage.minimum: 80\n",
			[]wantProblem{{2, "gates.coverage.minimum", `unknown setting "gates.coverage.minimum"`}}},
		{"unknown empty section prefix", "lock:\n  rulez: {}\n", []wantProblem{{2, "rulez", `unknown setting "rulez"`}}},
		{"invalid enum", "lock:\n  rules.tier:\n    fullest\n",
			[]wantProblem{{3, "rules.tier", `"fullest" is not allowed: use one of minimal, balanced, full`}}},
		{"invalid bool", "lock:\n  gates:\n    tests:\n      required: maybe\n",
			[]wantProblem{{4, "gates.tests.required", `"maybe" is not a boolean`}}},
		{"fraction for an int", "maximum:\n  commands.suggestions.max_options: 2.5\n",
			[]wantProblem{{2, "commands.suggestions.max_options", "not a whole number"}}},
		{"outside the schema's range", "minimum:\n  gates.coverage.min: 150\n",
			[]wantProblem{{2, "gates.coverage.min", "out of range"}}},
		{"list lock given a mapping", "lock:\n  rules.disabled: {a: 1}\n",
			[]wantProblem{{2, "rules.disabled", "want a list of rule names"}}},
		{"mapping for a value", "lock:\n  rules:\n    tier: {x: 1}\n",
			[]wantProblem{{3, "rules.tier", "want a single value, not a mapping"}}},
		{"bound on an enum", "minimum:\n  rules.tier: full\n",
			[]wantProblem{{2, "rules.tier", "rules.tier is an enum setting; a minimum applies to numbers only"}}},
		{"bound on a bool", "maximum:\n  skills:\n    autoload: false\n",
			[]wantProblem{{3, "skills.autoload", "a maximum applies to numbers only"}}},
		{"duplicate key", "lock:\n  rules.tier: full\n  rules.tier: minimal\n",
			[]wantProblem{{3, "rules.tier", "lock: rules.tier is given twice (first on line 2)"}}},
		{"duplicate nested key", "lock:\n  rules:\n    tier: full\n    tier: full\n",
			[]wantProblem{{4, "rules.tier", "given twice (first on line 3)"}}},
		{"duplicate across spellings", "minimum:\n  gates:\n    coverage:\n      min: 80\n  gates.coverage.min: 70\n",
			[]wantProblem{{5, "gates.coverage.min", "minimum: gates.coverage.min is given twice (first on line 4)"}}},
		{"duplicate section", "lock:\n  rules.tier: full\nlock:\n  agent.autonomy: off\n",
			[]wantProblem{{3, "lock", "section lock is given twice (first on line 1)"}}},
		{"minimum above maximum", "minimum:\n  cost.budget.daily: 60.5\nmaximum:\n  cost.budget.daily: 50\n",
			[]wantProblem{{4, "cost.budget.daily", "maximum: cost.budget.daily: 50 is below the minimum 60.5 on line 2"}}},
		{"lock below its minimum", "lock:\n  gates.coverage.min: 70\nminimum:\n  gates.coverage.min: 80\n",
			[]wantProblem{{2, "gates.coverage.min", "lock: gates.coverage.min: 70 is below the minimum 80 on line 4"}}},
		{"lock above its maximum", "maximum:\n  commands.suggestions.max_options: 3\nlock:\n  commands.suggestions.max_options: 5\n",
			[]wantProblem{{4, "commands.suggestions.max_options", "5 is above the maximum 3 on line 2"}}},
		{"yaml syntax", "lock:\n  rules.tier: full\n  x: [\n", []wantProblem{{3, "", "a list opened with [ is not closed with ]"}}},
		{"tab indentation", "lock:\n\trules.tier: full\n", []wantProblem{{2, "", "indented with a tab: YAML indents with spaces only"}}},
		{"second document", "lock:\n  rules.tier: full\n---\nlock: {}\n", []wantProblem{{3, "", "a second YAML document"}}},
		{"alias", "lock:\n  rules.tier: &t full\n  worktrees.mode: *t\n", []wantProblem{{3, "worktrees.mode", "aliases"}}},
		{"merge key", "lock:\n  <<: {rules.tier: full}\n", []wantProblem{{2, "<<", "merge keys (<<) are not allowed"}}},
		{"every problem at once",
			"lock:\n  rules.tier: fullest\n  rules.tierr: full\nminimum:\n  rules.tier: full\nmaxmum:\n  cost.budget.daily: 5\n",
			[]wantProblem{
				{2, "rules.tier", "not allowed"},
				{3, "rules.tierr", "unknown setting"},
				{5, "rules.tier", "numbers only"},
				{6, "maxmum", "unknown section"},
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParsePolicy(testPolicyPath, []byte(c.text))
			var me *MalformedPolicyError
			if !errors.As(err, &me) {
				t.Fatalf("want a malformed policy, got %+v, %v", p, err)
			}
			if me.Code() != "malformed_policy" || me.Path != testPolicyPath {
				t.Fatalf("code %q path %q", me.Code(), me.Path)
			}
			if len(me.Problems) != len(c.want) {
				t.Fatalf("want %d problems, got %d:\n%v", len(c.want), len(me.Problems), err)
			}
			for i, w := range c.want {
				got := me.Problems[i]
				if got.File != testPolicyPath || got.Line != w.line || got.Key != w.key || !strings.Contains(got.Message, w.msg) {
					t.Errorf("problem %d: got %+v, want line %d key %q message with %q", i, got, w.line, w.key, w.msg)
				}
				if where := fmt.Sprintf("%s:%d: ", testPolicyPath, w.line); !strings.Contains(err.Error(), where) {
					t.Errorf("error text does not name %s:\n%v", where, err)
				}
			}
			body, jerr := json.Marshal(core.ErrorExtras(err))
			if jerr != nil || !strings.Contains(string(body), `"problems":[{"file":"`+testPolicyPath+`","line":`) {
				t.Errorf("extras: %s %v", body, jerr)
			}
		})
	}
}

// Nested and dotted spellings mean the same, in every section.
func TestPolicySpellings(t *testing.T) {
	nested := mustPolicy(t, `
lock:
  rules:
    tier: full
    disabled: [a, b]
  gates:
    tests:
      required: true
minimum:
  gates:
    coverage:
      min: 80
maximum:
  cost:
    budget:
      daily: 50
  commands:
    suggestions:
      max_options: 6
`)
	dotted := mustPolicy(t, `
lock:
  rules.tier: full
  rules.disabled: [a, b]
  gates.tests.required: yes
minimum: {gates.coverage.min: 80.0}
maximum:
  cost.budget:
    daily: 5e1
  commands.suggestions.max_options: 6
`)
	for _, p := range []*Policy{nested, dotted} {
		if !slices.Equal(p.Keys(), []string{"commands.suggestions.max_options", "cost.budget.daily", "gates.coverage.min", "gates.tests.required", "rules.disabled", "rules.tier"}) {
			t.Fatalf("keys %v", p.Keys())
		}
		for key, want := range map[string]any{"rules.tier": "full", "gates.tests.required": true, "rules.disabled": []string{"a", "b"}} {
			if v, ok := p.Locked(key); !ok || !sameValue(v, want) {
				t.Errorf("lock %s = %v %v", key, v, ok)
			}
		}
		if lo, hi := p.Bounds("gates.coverage.min"); lo != Dec("80") || hi != nil {
			t.Errorf("coverage bounds %#v %#v", lo, hi)
		}
		if lo, hi := p.Bounds("cost.budget.daily"); lo != nil || hi != Dec("50") {
			t.Errorf("budget bounds %#v %#v", lo, hi)
		}
		if lo, hi := p.Bounds("commands.suggestions.max_options"); lo != nil || hi != int64(6) {
			t.Errorf("max_options bounds %#v %#v", lo, hi)
		}
		if _, ok := p.Locked("gates.coverage.min"); ok {
			t.Errorf("a bound is not a lock")
		}
		if lo, hi := p.Bounds("rules.tier"); lo != nil || hi != nil {
			t.Errorf("a lock is not a bound")
		}
	}
}

const teamPolicy = `
lock:
  rules:
    tier: full
  rules.disabled: [shortcuts]
  gates.tests.required: on
minimum:
  gates.coverage.min: 80
  commands.suggestions.max_options: 2
  commands.suggestions.confidence_floor: 0.1
maximum:
  cost.budget.daily: 50
  commands.suggestions.max_options: 8
  commands.suggestions.confidence_floor: 0.5
`

func TestPolicyApply(t *testing.T) {
	p := mustPolicy(t, teamPolicy)
	cases := []struct {
		key  string
		in   any
		want any
		by   bool
	}{
		{"rules.tier", "minimal", "full", true},
		{"rules.tier", "full", "full", true}, // a lock always gives the value
		{"rules.disabled", []string{}, []string{"shortcuts"}, true},
		{"gates.coverage.min", Dec("0"), Dec("80"), true},
		{"gates.coverage.min", Dec("79.99"), Dec("80"), true},
		{"gates.coverage.min", Dec("80"), Dec("80"), false}, // at the bound: the layer's value stands
		{"gates.coverage.min", Dec("90"), Dec("90"), false}, // a project may ask for more
		{"cost.budget.daily", Dec("0"), Dec("0"), false},
		{"cost.budget.daily", Dec("50.01"), Dec("50"), true},
		{"commands.suggestions.max_options", int64(0), int64(2), true},
		{"commands.suggestions.max_options", int64(4), int64(4), false},
		{"commands.suggestions.max_options", int64(20), int64(8), true},
		// Exact: 20 decimals, where a 16-digit comparison would call them equal.
		{"commands.suggestions.confidence_floor", Dec("0.50000000000000000001"), Dec("0.5"), true},
		{"commands.suggestions.confidence_floor", Dec("0.09999999999999999999"), Dec("0.1"), true},
		{"commands.suggestions.confidence_floor", Dec("0.10000000000000000001"), Dec("0.10000000000000000001"), false},
		{"agent.autonomy", "on", "on", false}, // no rule
	}
	for _, c := range cases {
		got, by := p.Apply(c.key, c.in)
		if !sameValue(got, c.want) || by != c.by || fmt.Sprintf("%T", got) != fmt.Sprintf("%T", c.want) {
			t.Errorf("Apply(%s, %#v) = %#v %v, want %#v %v", c.key, c.in, got, by, c.want, c.by)
		}
	}

	// The lock handed out is a copy.
	v, _ := p.Apply("rules.disabled", nil)
	v.([]string)[0] = "changed"
	if l, _ := p.Locked("rules.disabled"); l.([]string)[0] != "shortcuts" {
		t.Fatalf("a caller changed the policy: %v", l)
	}

	var none *Policy
	if v, by := none.Apply("rules.tier", "minimal"); v != "minimal" || by {
		t.Fatalf("nil policy: %v %v", v, by)
	}
	if none.Check("rules.tier", "minimal") != nil || none.Reason("rules.tier") != "" || none.Keys() != nil {
		t.Fatal("nil policy refused something")
	}
}
