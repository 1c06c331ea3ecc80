package settings

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core"
)

// PolicyVar overrides where the policy file is read from (hosts and tests).
const PolicyVar = "AGENTKIT_POLICY_FILE"

// The policy file's sections.
const (
	sectionLock    = "lock"
	sectionMinimum = "minimum"
	sectionMaximum = "maximum"
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

// PolicyProblem is one thing wrong with a policy file.
type PolicyProblem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Key     string `json:"key"`
	Message string `json:"message"`
}

// MalformedPolicyError lists every problem of a policy file at once, so
// that an administrator fixes them in one pass.
type MalformedPolicyError struct {
	Path     string
	Problems []PolicyProblem
}

// Code is malformed_policy.
func (e *MalformedPolicyError) Code() string { return core.CodeMalformedPolicy }

// Extras lists the problems with their file and line.
func (e *MalformedPolicyError) Extras() map[string]any {
	return map[string]any{"policy": e.Path, "problems": e.Problems}
}

func (e *MalformedPolicyError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "policy file %s is malformed; fix it by hand (charter reads it but never writes it):", e.Path)
	for _, p := range e.Problems {
		if p.Line > 0 {
			fmt.Fprintf(&b, "\n  %s:%d: %s", p.File, p.Line, p.Message)
		} else {
			fmt.Fprintf(&b, "\n  %s: %s", p.File, p.Message)
		}
	}
	return b.String()
}

// ParsePolicy reads a policy file's bytes; path names it in errors and in
// origins. Keys inside each section are nested or dotted, as in settings
// files, and their values go through the same checks as a setting's.
func ParsePolicy(path string, data []byte) (*Policy, error) {
	pp := &policyParser{path: path, pol: &Policy{Path: path, rules: map[string]*rule{}}}
	pp.parse(data)
	if len(pp.problems) > 0 {
		sort.SliceStable(pp.problems, func(i, j int) bool { return pp.problems[i].Line < pp.problems[j].Line })
		return nil, &MalformedPolicyError{Path: path, Problems: pp.problems}
	}
	pp.pol.data = bytes.Clone(data)
	return pp.pol, nil
}

type policyParser struct {
	path     string
	pol      *Policy
	problems []PolicyProblem
}

func (pp *policyParser) add(line int, key, format string, args ...any) {
	pp.problems = append(pp.problems, PolicyProblem{File: pp.path, Line: line, Key: key, Message: fmt.Sprintf(format, args...)})
}

func (pp *policyParser) parse(data []byte) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err != io.EOF { // io.EOF: empty or comments only, an empty policy
			pp.yamlError(err)
		}
		return
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		pp.add(next.Line, "", "a second YAML document: a policy is one document (remove the --- line)")
	case err != io.EOF:
		pp.yamlError(err)
	}
	if len(doc.Content) == 0 {
		return
	}
	top := doc.Content[0]
	if isNull(top) {
		return
	}
	if top.Kind != yaml.MappingNode {
		pp.add(top.Line, "", "the top level must be a mapping with the sections lock, minimum and maximum")
		return
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(top.Content); i += 2 {
		kn, vn := top.Content[i], top.Content[i+1]
		name := kn.Value
		switch {
		case kn.Kind != yaml.ScalarNode:
			pp.add(kn.Line, "", "a section name must be lock, minimum or maximum")
			continue
		case name != sectionLock && name != sectionMinimum && name != sectionMaximum:
			pp.add(kn.Line, name, "unknown section %q: use lock, minimum or maximum (an unknown section would silently enforce nothing)", name)
			continue
		}
		if first, dup := seen[name]; dup {
			pp.add(kn.Line, name, "section %s is given twice (first on line %d): merge them into one", name, first)
			continue
		}
		seen[name] = kn.Line
		switch {
		case isNull(vn):
		case vn.Kind != yaml.MappingNode:
			pp.add(vn.Line, name, "section %s must be a mapping of setting keys to values", name)
		default:
			pp.section(name, "", vn, map[string]int{})
		}
	}
	pp.crossCheck()
}

// yamlError records a YAML syntax error with the line the parser names.
func (pp *policyParser) yamlError(err error) {
	p := syntaxProblem(err)
	pp.add(p.Line, "", "%s", p.Message)
}

// section walks one section's mapping; seen holds the dotted keys already
// given in this section, so that `rules: {tier: …}` and `rules.tier: …`
// together are a duplicate.
func (pp *policyParser) section(sec, prefix string, m *yaml.Node, seen map[string]int) {
	here := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		kn, vn := m.Content[i], m.Content[i+1]
		if kn.Kind != yaml.ScalarNode {
			pp.add(kn.Line, prefix, "%s: a key must be a plain name", sec)
			continue
		}
		name := kn.Value
		if prefix != "" {
			name = prefix + "." + name
		}
		if first, dup := here[kn.Value]; dup {
			pp.add(kn.Line, name, "%s: %s is given twice (first on line %d)", sec, name, first)
			continue
		}
		here[kn.Value] = kn.Line
		if kn.Tag == "!!merge" {
			pp.add(kn.Line, name, "%s: merge keys (<<) are not allowed in a policy: write the keys out", sec)
			continue
		}
		if vn.Kind == yaml.AliasNode {
			pp.add(vn.Line, name, "%s: %s: aliases (*name) are not allowed in a policy: write the value out", sec, name)
			continue
		}
		k, ok := Lookup(name)
		switch {
		case ok:
			if first, dup := seen[name]; dup {
				pp.add(kn.Line, name, "%s: %s is given twice (first on line %d)", sec, name, first)
				continue
			}
			seen[name] = kn.Line
			pp.leaf(sec, k, kn, vn)
		case vn.Kind == yaml.MappingNode && (len(vn.Content) > 0 || isPrefix(name)):
			pp.section(sec, name, vn, seen)
		default:
			pp.add(kn.Line, name, "%s: %s", sec, UnknownKeyMessage(name))
		}
	}
}

func (pp *policyParser) leaf(sec string, k Key, kn, vn *yaml.Node) {
	if sec != sectionLock && k.Kind != Int && k.Kind != Decimal {
		pp.add(kn.Line, k.Name, "%s: %s is %s setting; a %s applies to numbers only (use lock to pin it)", sec, k.Name, kindArticle(k.Kind), sec)
		return
	}
	v, err := policyValue(k, vn)
	if err != nil {
		pp.add(vn.Line, k.Name, "%s: %v", sec, err)
		return
	}
	r := pp.pol.rules[k.Name]
	if r == nil {
		r = &rule{}
		pp.pol.rules[k.Name] = r
	}
	switch sec {
	case sectionLock:
		r.lock, r.locked, r.lockLine = v, true, vn.Line
	case sectionMinimum:
		r.min, r.minLine, r.hasMin = v, vn.Line, true
		r.minDec, _ = toDecimal(v)
	case sectionMaximum:
		r.max, r.maxLine, r.hasMax = v, vn.Line, true
		r.maxDec, _ = toDecimal(v)
	}
}

// crossCheck finds rules that contradict each other: a minimum above the
// maximum, or a lock outside the key's own bounds.
func (pp *policyParser) crossCheck() {
	for _, key := range pp.pol.Keys() {
		r := pp.pol.rules[key]
		if r.hasMin && r.hasMax && r.minDec.GreaterThan(r.maxDec) {
			pp.add(r.maxLine, key, "maximum: %s: %v is below the minimum %v on line %d", key, r.max, r.min, r.minLine)
		}
		if !r.locked {
			continue
		}
		d, ok := toDecimal(r.lock)
		if !ok {
			continue
		}
		if r.hasMin && d.LessThan(r.minDec) {
			pp.add(r.lockLine, key, "lock: %s: %v is below the minimum %v on line %d", key, r.lock, r.min, r.minLine)
		}
		if r.hasMax && d.GreaterThan(r.maxDec) {
			pp.add(r.lockLine, key, "lock: %s: %v is above the maximum %v on line %d", key, r.lock, r.max, r.maxLine)
		}
	}
}

// isPrefix reports whether some schema key lies below name.
func isPrefix(name string) bool {
	return slices.ContainsFunc(schema, func(k Key) bool { return strings.HasPrefix(k.Name, name+".") })
}

func kindArticle(k Kind) string {
	switch k {
	case Enum:
		return "an enum"
	case List:
		return "a list"
	}
	return "a " + string(k)
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
