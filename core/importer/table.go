package importer

import (
	"path"
	"strings"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/lazy"
)

// The places import reads for an agent are the agent table's (SPEC §17):
// where charter's projector writes each kind, so that what is imported is
// what apply then owns, plus the places the agent reads no more or that
// charter does not write (Retired, ImportAlso). Each file format of the
// table has its reader here.

// readers turn a native file of a format into a source.
var readers = lazy.Value[map[string]func(c *Candidate, data []byte)]{Make: func() map[string]func(c *Candidate, data []byte) {
	return map[string]func(c *Candidate, data []byte){
		"paths": claudeRule, "cursor": cursorRule, "copilot": copilotRule,
		"trigger":  modeRule("trigger", "glob", "always_on", "globs"),
		"kiro":     modeRule("inclusion", "fileMatch", "always", "fileMatchPattern"),
		"continue": continueRule, "augment": augmentRule, "plain": plain,
		"md": verbatim, "toml": geminiCommand, "copilot-prompt": copilotPrompt,
	}
}}

// agentSpots are the places of agent a at level, in the order import
// reads them: rules, skills, commands, subagents.
func agentSpots(a agents.Agent, level string) []spot {
	places := a.At(level)
	var out []spot
	add := func(k content.Kind, p agents.Place, subdirs bool) {
		if p.Dir == "" {
			return
		}
		sp := spot{agent: a.Name, kind: k, dir: strings.TrimSuffix(p.Dir, "/"), suffix: p.Ext, subdirs: subdirs}
		switch k {
		case content.KindSkill:
		case content.KindSubagent:
			if p.Format == "codex" {
				return // TOML agents: no reader yet
			}
			sp.convert = subagent
		default:
			if sp.convert = readers.Get()[p.Format]; sp.convert == nil {
				return // a format import cannot read
			}
		}
		if k == content.KindRule && level == content.LevelProject && path.Dir(a.ProjectFile)+"/" == p.Dir {
			sp.ignore = []string{path.Base(a.ProjectFile)} // charter's own file there
		}
		out = append(out, sp)
	}
	other := func(k content.Kind) {
		for _, r := range append(a.ImportAlso, a.Retired...) {
			if r.Level == level && r.Kind == string(k) {
				add(k, agents.Place{Dir: r.Dir, Ext: r.Ext, Format: r.Format}, false)
			}
		}
	}
	add(content.KindRule, places.Rules, places.Rules.Format == "paths")
	add(content.KindSkill, places.Skills, false)
	other(content.KindSkill)
	add(content.KindCommand, places.Commands, false)
	other(content.KindCommand)
	add(content.KindSubagent, places.Subagents, false)
	return out
}

// modeRule reads a rule whose key mode says how the agent loads it:
// scoped by the globs under globsKey when mode is scoped, always when it
// is always or absent; any other mode (the model's choice, manual) has no
// charter field: always loaded, with a note. Windsurf's and Antigravity's
// trigger, Kiro's inclusion.
func modeRule(mode, scoped, always, globsKey string) func(c *Candidate, data []byte) {
	return func(c *Candidate, data []byte) {
		fm, _, ok := split(c, data)
		if !ok {
			return
		}
		others(c, &fm, mode, globsKey, "description", "name")
		f := ruleFront{Description: text(&fm, "description")}
		switch m := text(&fm, mode); m {
		case scoped:
			f.Globs = texts(&fm, globsKey)
		case "", always:
		default:
			c.note("%s: %s has no charter field: charter's rule is always loaded; add globs or disable it", mode, m)
		}
		c.Data = f.source(fm.Body)
	}
}

// continueRule reads Continue's rules: globs scope it unless alwaysApply.
func continueRule(c *Candidate, data []byte) {
	fm, _, ok := split(c, data)
	if !ok {
		return
	}
	others(c, &fm, "name", "description", "globs", "alwaysApply")
	f := ruleFront{Description: text(&fm, "description"), Globs: texts(&fm, "globs")}
	if text(&fm, "alwaysApply") == "true" {
		f.Globs = nil
	}
	c.Data = f.source(fm.Body)
}

// augmentRule reads Augment's rules, which no path scopes.
func augmentRule(c *Candidate, data []byte) {
	fm, _, ok := split(c, data)
	if !ok {
		return
	}
	others(c, &fm, "type", "description")
	if t := text(&fm, "type"); t != "" && t != "always_apply" {
		c.note("type: %s has no charter field: charter's rule is always loaded; disable it if it should wait", t)
	}
	c.Data = ruleFront{Description: text(&fm, "description")}.source(fm.Body)
}
