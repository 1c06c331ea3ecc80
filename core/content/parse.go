package content

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// MaxDescription is the longest skill description the Agent Skills format
// allows; charter holds every kind to it.
const MaxDescription = 1024

// Tiers lists the rule tiers, lowest first.
func Tiers() []string { return []string{TierMinimal, TierBalanced, TierFull} }

// ruleKeys are the only keys a rule's frontmatter may have: the format is
// charter's own, so a typo (teir: full) must not pass unnoticed.
var ruleKeys = []string{"description", "tier", "globs", "agents", "alwaysApply"}

// Parse reads one source of kind k named name (the file stem, or a skill's
// folder) from data. agents are the agent names a rule may name. Every
// problem comes back with path and line.
func Parse(k Kind, name, path string, data []byte, agents []string) (*Item, []Problem) {
	p := parser{path: path}
	fm, prob := ParseFrontmatter(data)
	if prob != nil {
		prob.Path = path
		return nil, []Problem{*prob}
	}
	if !utf8.Valid(data) {
		p.add(0, "is not UTF-8 text: save it as UTF-8")
	}
	it := &Item{Kind: k, Name: name, Path: path, Front: fm.Raw, Body: fm.Body, Keys: keyTexts(fm.Raw, fm.Fields, 2)}
	switch k {
	case KindRule:
		for _, f := range fm.Fields {
			if !slices.Contains(ruleKeys, f.Key) {
				p.add(f.Line, "%s is not a rule field: a rule has %s", f.Key, strings.Join(ruleKeys, ", "))
			}
		}
		it.Description = p.text(&fm, "description", false)
		it.Tier = TierBalanced
		if t := p.text(&fm, "tier", false); t != "" {
			if !slices.Contains(Tiers(), t) {
				p.add(fm.Lookup("tier").Line, "tier %q is not one of %s", t, strings.Join(Tiers(), ", "))
			}
			it.Tier = t
		}
		it.Globs = p.list(&fm, "globs", false)
		for _, g := range it.Globs {
			if g == "" || strings.HasPrefix(g, "/") || strings.Contains(g, `\`) {
				p.add(fm.Lookup("globs").Line, "glob %q must be a project-relative path pattern with / between folders (e.g. src/**/*.go)", g)
			}
		}
		switch a := p.text(&fm, "alwaysApply", false); a {
		case "", "true":
		case "false":
			// Cursor's key, kept from an import: without globs the rule
			// is agent-requested there, always loaded elsewhere.
			it.OnRequest = len(it.Globs) == 0
		default:
			p.add(fm.Lookup("alwaysApply").Line, "alwaysApply must be true or false, not %q", a)
		}
		it.Agents = p.list(&fm, "agents", false)
		for _, a := range it.Agents {
			if !slices.Contains(agents, a) {
				p.add(fm.Lookup("agents").Line, "agent %q is not one charter knows: use %s", a, strings.Join(agents, ", "))
			}
		}
	case KindSkill:
		p.needs(&fm, "skill")
		p.sameName(&fm, name, "folder")
		it.Description = p.text(&fm, "description", true)
	case KindCommand:
		it.Description = p.text(&fm, "description", false)
		if f := fm.Lookup("argument-hint"); f != nil && f.Value.Kind == yaml.SequenceNode && f.Value.Style&yaml.FlowStyle != 0 {
			// Claude Code's documented [focus area] is a hint, not a list.
			it.ArgHint = rawValue(data, f)
		} else {
			it.ArgHint = p.text(&fm, "argument-hint", false)
		}
	case KindSubagent:
		p.needs(&fm, "subagent")
		p.sameName(&fm, name, "file name")
		it.Description = p.text(&fm, "description", true)
		it.Tools = p.list(&fm, "tools", true)
		it.Model = p.text(&fm, "model", false)
	}
	if n := utf8.RuneCountInString(it.Description); n > MaxDescription {
		p.add(fm.Lookup("description").Line, "the description has %d characters, more than %d: shorten it", n, MaxDescription)
	}
	if len(p.problems) > 0 {
		return nil, p.problems
	}
	return it, nil
}

type parser struct {
	path     string
	problems []Problem
}

func (p *parser) add(line int, format string, args ...any) {
	p.problems = append(p.problems, Problem{Path: p.path, Line: line, Message: fmt.Sprintf(format, args...)})
}

// needs reports a kind whose frontmatter is required but absent.
func (p *parser) needs(fm *Frontmatter, what string) {
	if !fm.Present {
		p.add(1, "a %s starts with frontmatter between --- lines holding at least name and description", what)
	}
}

// sameName checks that the name field is the item's name.
func (p *parser) sameName(fm *Frontmatter, name, where string) {
	got := p.text(fm, "name", fm.Present)
	if got != "" && got != name {
		p.add(fm.Lookup("name").Line, "name %q must be the %s, %q", got, where, name)
	}
}

// text is a scalar field's text; required fields must not be blank.
func (p *parser) text(fm *Frontmatter, key string, required bool) string {
	f := fm.Lookup(key)
	switch {
	case f == nil:
		if required && fm.Present {
			p.add(1, "%s is required in the frontmatter", key)
		}
		return ""
	case f.Value.Kind == yaml.ScalarNode && f.Value.Tag == "!!null":
		if required {
			p.add(f.Line, "%s must not be empty", key)
		}
		return ""
	case f.Value.Kind != yaml.ScalarNode:
		p.add(f.Line, "%s must be text", key)
		return ""
	case required && strings.TrimSpace(f.Value.Value) == "":
		p.add(f.Line, "%s must not be empty", key)
	}
	return f.Value.Value
}

// list is a list field's items; a single text counts as a list of one
// item, or with split as its comma-separated parts (tools: Read, Grep, as
// Claude Code writes them).
func (p *parser) list(fm *Frontmatter, key string, split bool) []string {
	f := fm.Lookup(key)
	if f == nil {
		return nil
	}
	v := f.Value
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" {
			return nil
		}
		if !split {
			return []string{v.Value}
		}
		var out []string
		for _, s := range strings.Split(v.Value, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	case yaml.SequenceNode:
		out := make([]string, 0, len(v.Content))
		for _, c := range v.Content {
			if c.Kind != yaml.ScalarNode || c.Tag == "!!null" {
				p.add(c.Line, "each item of %s must be text", key)
				continue
			}
			out = append(out, c.Value)
		}
		return out
	}
	p.add(f.Line, "%s must be a list", key)
	return nil
}
