package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
)

func TestPolicyCheck(t *testing.T) {
	p := mustPolicy(t, teamPolicy)
	allowed := []struct {
		key string
		v   any
	}{
		{"rules.tier", "full"}, // equal to the lock
		{"rules.disabled", []string{"shortcuts"}},
		{"gates.tests.required", true},
		{"gates.coverage.min", Dec("80")},
		{"gates.coverage.min", Dec("100")},
		{"cost.budget.daily", Dec("50")},
		{"commands.suggestions.max_options", int64(2)},
		{"commands.suggestions.confidence_floor", Dec("0.10000000000000000001")},
		{"agent.autonomy", "on"},
	}
	for _, c := range allowed {
		if err := p.Check(c.key, c.v); err != nil {
			t.Errorf("Check(%s, %v): %v", c.key, c.v, err)
		}
	}
	refused := []struct {
		key    string
		v      any
		msg    string
		extras string
	}{
		{"rules.tier", "minimal", "rules.tier is locked to full by " + testPolicyPath,
			`{"allowed":"full","key":"rules.tier","policy":"` + testPolicyPath + `"}`},
		{"rules.disabled", []string{"shortcuts", "x"}, "rules.disabled is locked to shortcuts by",
			`{"allowed":["shortcuts"],"key":"rules.disabled","policy":"` + testPolicyPath + `"}`},
		{"rules.disabled", []string{"other"}, "rules.disabled is locked to shortcuts by", `"allowed":["shortcuts"]`},
		{"gates.tests.required", false, "gates.tests.required is locked to true by", `"allowed":true`},
		{"gates.coverage.min", Dec("79.5"), "gates.coverage.min: 79.5 is below the minimum of 80 set by " + testPolicyPath + ": nothing was written (use 80 or more)",
			`{"key":"gates.coverage.min","minimum":80,"policy":"` + testPolicyPath + `"}`},
		{"cost.budget.daily", Dec("50.5"), "50.5 is above the maximum of 50 set by " + testPolicyPath + ": nothing was written (use 50 or less)",
			`{"key":"cost.budget.daily","maximum":50,"policy":"` + testPolicyPath + `"}`},
		{"commands.suggestions.max_options", int64(9), "9 is above the maximum of 8 set by", `"maximum":8,"minimum":2`},
		{"commands.suggestions.max_options", int64(1), "1 is below the minimum of 2 set by", `(use a value from 2 to 8)`},
		{"commands.suggestions.confidence_floor", Dec("0.50000000000000000001"), "above the maximum of 0.5", `"maximum":0.5,"minimum":0.1`},
	}
	for _, c := range refused {
		err := p.Check(c.key, c.v)
		var pe *PolicyError
		if !errors.As(err, &pe) || pe.Code() != "locked_by_policy" || pe.Key != c.key || pe.Policy != testPolicyPath {
			t.Errorf("Check(%s, %v) = %v, want a policy refusal", c.key, c.v, err)
			continue
		}
		body, _ := json.Marshal(core.ErrorExtras(err))
		if !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error()+string(body), c.extras) {
			t.Errorf("Check(%s, %v):\n%v\n%s\nwant %q and %q", c.key, c.v, err, body, c.msg, c.extras)
		}
	}
	for _, k := range p.Keys() {
		if err := p.CheckUnset(k); err != nil {
			t.Errorf("unset %s refused: %v", k, err)
		}
	}
	err := p.CheckSet(map[string]any{"agent.autonomy": "on", "rules.tier": "minimal", "cost.budget.daily": Dec("99")})
	var pe *PolicyError
	if !errors.As(err, &pe) || pe.Key != "cost.budget.daily" {
		t.Fatalf("CheckSet refuses the first bad key in order: %v", err)
	}
	if err := p.CheckSet(map[string]any{"rules.tier": "full", "agent.autonomy": "off"}); err != nil {
		t.Fatal(err)
	}
}

func TestPolicyReason(t *testing.T) {
	p := mustPolicy(t, teamPolicy)
	for key, want := range map[string]string{
		"rules.tier":                       "locked to full by " + testPolicyPath,
		"rules.disabled":                   "locked to shortcuts by " + testPolicyPath,
		"gates.coverage.min":               "limited to 80 or more by " + testPolicyPath,
		"cost.budget.daily":                "limited to 50 or less by " + testPolicyPath,
		"commands.suggestions.max_options": "limited to a value from 2 to 8 by " + testPolicyPath,
		"agent.autonomy":                   "",
	} {
		if got := p.Reason(key); got != want {
			t.Errorf("Reason(%s) = %q, want %q", key, got, want)
		}
	}
	if got := mustPolicy(t, "lock: {skills.disabled: []}").Reason("skills.disabled"); got != "locked to an empty list by "+testPolicyPath {
		t.Errorf("empty list: %q", got)
	}
}

// Every schema key can be locked to its default, and every numeric key
// bounded at its default.
func TestPolicyEverySchemaKey(t *testing.T) {
	var lock, bound strings.Builder
	lock.WriteString("lock:\n")
	bound.WriteString("minimum:\n")
	for _, k := range Keys() {
		fmt.Fprintf(&lock, "  %s: %s\n", k.Name, yamlText(k.Default))
		if k.Kind == Int || k.Kind == Decimal {
			fmt.Fprintf(&bound, "  %s: %s\n", k.Name, yamlText(k.Default))
		}
	}
	lp, bp := mustPolicy(t, lock.String()), mustPolicy(t, bound.String())
	for _, k := range Keys() {
		if v, ok := lp.Locked(k.Name); !ok || !sameValue(v, k.Default) {
			t.Errorf("lock %s = %v %v", k.Name, v, ok)
		}
		if err := bp.Check(k.Name, k.Default); err != nil {
			t.Errorf("default of %s against a minimum at the default: %v", k.Name, err)
		}
	}
}

func yamlText(v any) string {
	if s, ok := v.([]string); ok {
		b, _ := json.Marshal(s)
		return string(b)
	}
	return fmt.Sprint(v)
}

// Any bytes either parse into a policy whose rules hold together, or fail
// with problems that each name the file; never a panic.
func FuzzParsePolicy(f *testing.F) {
	for _, s := range []string{
		teamPolicy,
		"lock:\n  rules:\n    tier: full\n  gates.tests.required: true\nminimum:\n  gates.coverage.min: 80\nmaximum:\n  cost.budget.daily: 50\n",
		"",
		"lock: ~\n",
		"lokc: {}\n",
		"lock: {rules.tier: [a]}\n",
		"lock:\n  a: &x 1\n  b: *x\n",
		"lock:\n  <<: {rules.tier: full}\n",
		"minimum: {commands.suggestions.max_options: 3}\nmaximum: {commands.suggestions.max_options: 2}\n",
		"lock: {gates.coverage.min: 1e2}\nminimum: {gates.coverage.min: 100.0}\n",
		"lock:\n  rules: {tier: full}\n  rules.tier: full\n",
		"lock: {}\n---\n- x\n",
		"? [a]\n: 1\n",
		"lock:\n  ? {a: 1}\n  : 2\n",
		"\t",
		"lock:\r\n  rules.tier: full\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePolicy(testPolicyPath, data)
		if err != nil {
			var me *MalformedPolicyError
			if !errors.As(err, &me) || len(me.Problems) == 0 {
				t.Fatalf("not a malformed-policy error with problems: %v", err)
			}
			for _, pr := range me.Problems {
				if pr.File != testPolicyPath || pr.Line < 0 || pr.Message == "" {
					t.Fatalf("bad problem %+v", pr)
				}
			}
			return
		}
		for _, k := range p.Keys() {
			if _, ok := Lookup(k); !ok {
				t.Fatalf("rule for unknown key %q", k)
			}
			if lock, ok := p.Locked(k); ok {
				if err := p.Check(k, lock); err != nil {
					t.Fatalf("the lock of %s is refused: %v", k, err)
				}
			}
			lo, hi := p.Bounds(k)
			for _, b := range []any{lo, hi} {
				if b == nil {
					continue
				}
				if v, _ := p.Apply(k, b); p.Check(k, v) != nil {
					t.Fatalf("%s: Apply(%v) = %v, which Check refuses", k, b, v)
				}
			}
			if p.Reason(k) == "" {
				t.Fatalf("%s has a rule but no reason", k)
			}
		}
	})
}
