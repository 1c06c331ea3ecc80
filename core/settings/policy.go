package settings

import (
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/agentkit/charter/core"
)

// PolicyVar overrides where the policy file is read from (hosts and tests).
const PolicyVar = core.PolicyFileVar

// The policy file's sections.
const (
	sectionLock    = "lock"
	sectionMinimum = "minimum"
	sectionMaximum = "maximum"
	sectionSources = "sources"
)

// PolicyPath is AGENTKIT_POLICY_FILE when set and not blank, else the
// system-wide path of this operating system.
func PolicyPath(sys *core.System) (string, error) { return policyPath(sys, runtime.GOOS) }

func policyPath(sys *core.System, goos string) (string, error) {
	if v := sys.Getenv(PolicyVar); strings.TrimSpace(v) != "" {
		p, err := sys.Normalize(v)
		if err != nil {
			return "", fmt.Errorf("%s: %w", PolicyVar, err)
		}
		return p, nil
	}
	switch {
	case sys.Paths.Windows:
		base := strings.TrimSpace(sys.Getenv("ProgramData"))
		if base == "" {
			base = strings.TrimSpace(sys.Getenv("PROGRAMDATA"))
		}
		if base == "" || !sys.Paths.IsAbs(base) {
			base = `C:\ProgramData`
		}
		return sys.Paths.Join(base, "agentkit", "charter", "policy.yaml"), nil
	case goos == "darwin" || goos == "ios":
		return "/Library/Application Support/agentkit/charter/policy.yaml", nil
	}
	return "/etc/agentkit/charter/policy.yaml", nil
}

// Policy is an administrator's rules: keys locked to a value, and bounds on
// numeric keys. It wins over every other layer. A nil *Policy is no policy,
// and every method is safe on it.
type Policy struct {
	Path  string
	rules map[string]*rule
	data  []byte // the file's bytes, for the settings ETag
	// sources are the shared sources the policy declares: an
	// organisation's mandatory library (SPEC §15).
	sources []PolicySource
	// itemDirs are the folders of those sources' pinned trees, set by
	// whoever read their lock: their rules and skills cannot be disabled.
	itemDirs []PolicyItemDir
	gov      policyGov // the permissions and mcp sections (policy_gov.go)
}

// PolicySource is one item of the policy's sources list, with its line.
type PolicySource struct {
	Decl string
	Line int
}

// Sources lists the shared sources the policy declares.
func (p *Policy) Sources() []PolicySource {
	if p == nil {
		return nil
	}
	return slices.Clone(p.sources)
}

// PolicyItemDir is a folder of policy items besides the policy's own: a
// policy source's pinned tree, named for messages.
type PolicyItemDir struct {
	Dir  string
	Name string // e.g. "policy source acme (https://…)"
}

// SetItemDirs records the pinned trees of the policy's sources, whose
// items are policy items like the policy folder's own.
func (p *Policy) SetItemDirs(dirs []PolicyItemDir) {
	if p != nil {
		p.itemDirs = slices.Clone(dirs)
	}
}

type rule struct {
	lock, min, max             any // nil when absent; min and max are int64 or Dec
	locked                     bool
	lockLine, minLine, maxLine int
	minDec, maxDec             decimal.Decimal
	hasMin, hasMax             bool
}

// Locked returns the value key is locked to.
func (p *Policy) Locked(key string) (any, bool) {
	r := p.rule(key)
	if r == nil || !r.locked {
		return nil, false
	}
	return cloneValue(r.lock), true
}

// Bounds returns key's minimum and maximum (int64 or Dec), nil where the
// policy sets none.
func (p *Policy) Bounds(key string) (minimum, maximum any) {
	r := p.rule(key)
	if r == nil {
		return nil, nil
	}
	return r.min, r.max
}

// Keys lists the keys the policy has a rule for, sorted.
func (p *Policy) Keys() []string {
	if p == nil {
		return nil
	}
	keys := make([]string, 0, len(p.rules))
	for k := range p.rules {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Apply returns key's effective value given v, the value of the highest
// other layer: the lock when there is one, else v raised to the minimum or
// lowered to the maximum. byPolicy tells whether the policy gave the value
// (a lock always does; a bound only when it changed v), and so whether the
// origin is the policy file.
func (p *Policy) Apply(key string, v any) (effective any, byPolicy bool) {
	r := p.rule(key)
	if r == nil {
		return v, false
	}
	if r.locked {
		return cloneValue(r.lock), true
	}
	d, ok := toDecimal(v)
	if !ok {
		return v, false
	}
	if r.hasMin && d.LessThan(r.minDec) {
		return r.min, true
	}
	if r.hasMax && d.GreaterThan(r.maxDec) {
		return r.max, true
	}
	return v, false
}

// Check tells whether v may be written to key at any layer: not when the
// key is locked to another value, nor when v lies outside a bound.
func (p *Policy) Check(key string, v any) error {
	if err := p.checkGov(key, v); err != nil {
		return err
	}
	r := p.rule(key)
	if r == nil {
		return nil
	}
	e := &PolicyError{Key: key, Policy: p.Path, Value: v}
	if r.locked {
		if sameValue(v, r.lock) {
			return nil
		}
		e.Allowed, e.locked = cloneValue(r.lock), true
		return e
	}
	d, ok := toDecimal(v)
	if !ok {
		return nil // not a number: the schema's check reports it
	}
	if (r.hasMin && d.LessThan(r.minDec)) || (r.hasMax && d.GreaterThan(r.maxDec)) {
		e.Minimum, e.Maximum = r.min, r.max
		return e
	}
	return nil
}

// CheckSet checks every value of a write, in key order, and returns the
// first refusal.
func (p *Policy) CheckSet(values map[string]any) error {
	for _, k := range sortedKeys(values) {
		if err := p.Check(k, values[k]); err != nil {
			return err
		}
	}
	return nil
}

// CheckUnset tells whether key may be removed from a layer. It always may:
// the policy still wins afterwards, so nothing it guards is weakened.
func (p *Policy) CheckUnset(key string) error { return nil }

// Reason describes in words what the policy does to key, or "" when it
// does nothing: the text `settings explain` and the hub show next to a
// locked or bounded field.
func (p *Policy) Reason(key string) string {
	r := p.rule(key)
	if r == nil {
		return ""
	}
	if r.locked {
		return fmt.Sprintf("locked to %s by %s", formatPolicyValue(r.lock), p.Path)
	}
	return fmt.Sprintf("limited to %s by %s", rangeWords(r.min, r.max), p.Path)
}

func (p *Policy) rule(key string) *rule {
	if p == nil {
		return nil
	}
	return p.rules[key]
}

// rangeWords says which values the bounds allow.
func rangeWords(minimum, maximum any) string {
	switch {
	case minimum != nil && maximum != nil:
		return fmt.Sprintf("a value from %v to %v", minimum, maximum)
	case minimum != nil:
		return fmt.Sprintf("%v or more", minimum)
	}
	return fmt.Sprintf("%v or less", maximum)
}

// PolicyError is a write the policy refuses; nothing was written.
type PolicyError struct {
	Key     string
	Policy  string // the policy file
	Value   any    // the refused value
	Allowed any    // the lock, when the key is locked
	Minimum any    // the bounds, when a bound refused the value
	Maximum any
	locked  bool
}

// Code is locked_by_policy for a lock and a bound alike.
func (e *PolicyError) Code() string { return core.CodeLockedByPolicy }

// Extras names the key, the policy file and what it allows.
func (e *PolicyError) Extras() map[string]any {
	x := map[string]any{"key": e.Key, "policy": e.Policy}
	if e.locked {
		x["allowed"] = e.Allowed
		return x
	}
	if e.Minimum != nil {
		x["minimum"] = e.Minimum
	}
	if e.Maximum != nil {
		x["maximum"] = e.Maximum
	}
	return x
}

func (e *PolicyError) Error() string {
	if e.locked {
		return fmt.Sprintf("%s is locked to %s by %s: nothing was written (ask whoever manages that file to change the lock)",
			e.Key, formatPolicyValue(e.Allowed), e.Policy)
	}
	side, bound := "above the maximum", e.Maximum
	if d, ok := toDecimal(e.Value); ok && e.Minimum != nil {
		if lo, _ := toDecimal(e.Minimum); d.LessThan(lo) {
			side, bound = "below the minimum", e.Minimum
		}
	}
	return fmt.Sprintf("%s: %s is %s of %v set by %s: nothing was written (use %s)",
		e.Key, formatPolicyValue(e.Value), side, bound, e.Policy, rangeWords(e.Minimum, e.Maximum))
}

// toDecimal reads a numeric setting value exactly.
func toDecimal(v any) (decimal.Decimal, bool) {
	switch t := v.(type) {
	case int64:
		return decimal.NewFromInt(t), true
	case int:
		return decimal.NewFromInt(int64(t)), true
	case Dec:
		d, err := decimal.NewFromString(string(t))
		return d, err == nil
	}
	return decimal.Decimal{}, false
}

// sameValue compares two setting values; numbers by value, so 80 and 80.0
// are the same.
func sameValue(a, b any) bool {
	if as, ok := a.([]string); ok {
		bs, ok := b.([]string)
		return ok && slices.Equal(as, bs)
	}
	if da, ok := toDecimal(a); ok {
		db, ok := toDecimal(b)
		return ok && da.Equal(db)
	}
	return a == b
}

func cloneValue(v any) any {
	if s, ok := v.([]string); ok {
		return slices.Clone(s)
	}
	return v
}

func formatPolicyValue(v any) string {
	if s, ok := v.([]string); ok {
		if len(s) == 0 {
			return "an empty list"
		}
		return strings.Join(s, ",")
	}
	return fmt.Sprint(v)
}
