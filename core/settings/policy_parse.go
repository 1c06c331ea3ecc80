package settings

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core"
)

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
			pp.yamlError(err, data)
		}
		return
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		pp.add(next.Line, "", "a second YAML document: a policy is one document (remove the --- line)")
	case err != io.EOF:
		pp.yamlError(err, data)
	}
	if len(doc.Content) == 0 {
		return
	}
	top := doc.Content[0]
	if isNull(top) {
		return
	}
	if top.Kind != yaml.MappingNode {
		pp.add(top.Line, "", "the top level must be a mapping with the sections lock, minimum, maximum and sources")
		return
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(top.Content); i += 2 {
		kn, vn := top.Content[i], top.Content[i+1]
		name := kn.Value
		switch {
		case kn.Kind != yaml.ScalarNode:
			pp.add(kn.Line, "", "a section name must be lock, minimum, maximum or sources")
			continue
		case name != sectionLock && name != sectionMinimum && name != sectionMaximum && name != sectionSources &&
			name != sectionPermissions && name != sectionMCP:
			pp.add(kn.Line, name, "unknown section %q: use lock, minimum, maximum, sources, permissions or mcp (an unknown section would silently enforce nothing)", name)
			continue
		}
		if first, dup := seen[name]; dup {
			pp.add(kn.Line, name, "section %s is given twice (first on line %d): merge them into one", name, first)
			continue
		}
		seen[name] = kn.Line
		switch {
		case isNull(vn):
		case name == sectionSources:
			pp.sources(vn)
		case name == sectionPermissions:
			pp.permissions(vn)
		case name == sectionMCP:
			pp.mcp(vn)
		case vn.Kind != yaml.MappingNode:
			pp.add(vn.Line, name, "section %s must be a mapping of setting keys to values", name)
		default:
			pp.section(name, "", vn, map[string]int{})
		}
	}
	pp.crossCheck()
}

// sources reads the list of shared sources the policy declares (SPEC
// §15): each item a string, checked as a source by the session, which
// names its line.
func (pp *policyParser) sources(vn *yaml.Node) {
	if vn.Kind != yaml.SequenceNode {
		pp.add(vn.Line, sectionSources, "sources must be a list of sources, each URL#ref=REF&path=DIR&name=NAME as in a settings file")
		return
	}
	for _, it := range vn.Content {
		if it.Kind != yaml.ScalarNode || it.Tag == "!!null" || strings.TrimSpace(it.Value) == "" {
			pp.add(it.Line, sectionSources, "sources: each item is one source as text, URL#ref=REF&path=DIR&name=NAME")
			continue
		}
		pp.pol.sources = append(pp.pol.sources, PolicySource{Decl: it.Value, Line: it.Line})
	}
}

// yamlError records a YAML syntax error with the line the parser names.
func (pp *policyParser) yamlError(err error, data []byte) {
	p := syntaxProblem(err, data)
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
	return slices.ContainsFunc(schema(), func(k Key) bool { return strings.HasPrefix(k.Name, name+".") })
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
