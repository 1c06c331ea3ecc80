package agents

import (
	"iter"
	"slices"
)

// XDGConfigVar moves the user's config folder (~/.config) for the agents
// that follow it (Agent.XDGDir).
const XDGConfigVar = "XDG_CONFIG_HOME"

// Table is the agents a run knows, in canonical order; a nil Table is the
// built-in one (Default), so a run that adds none keys nothing of it.
type Table []Agent

// rows is the table, not copied.
func (t Table) rows() []Agent {
	if t != nil {
		return t
	}
	return agentTable.Get()
}

// All lists the agents, a copy the caller may change.
func (t Table) All() []Agent { return slices.Clone(t.rows()) }

// Each yields the agents without copying the table: for lookups that run
// many times in one command (every profile variable, every agent path).
func (t Table) Each() iter.Seq[Agent] { return slices.Values(t.rows()) }

// Lookup finds an agent by name.
func (t Table) Lookup(name string) (Agent, bool) {
	all := t.rows()
	i := slices.IndexFunc(all, func(a Agent) bool { return a.Name == name })
	if i < 0 {
		return Agent{}, false
	}
	return all[i], true
}

// Names lists the agents' names.
func (t Table) Names() []string {
	var out []string
	for a := range t.Each() {
		out = append(out, a.Name)
	}
	return out
}

// DirVar is an agent with its DirVar.
type DirVar struct{ Agent, Var string }

// builtinDirVars is DirVars of the built-in table, written out so that
// resolving the profile, which every command does, does not build the
// whole table (a tenth of `settings get`'s own work); TestBuiltinDirVars
// holds it to the table.
var builtinDirVars = []DirVar{
	{"claude", "CLAUDE_CONFIG_DIR"}, {"codex", "CODEX_HOME"}, {"copilot", "COPILOT_HOME"},
	{"cline", "CLINE_DIR"}, {"kilo", "KILO_CONFIG_DIR"}, {"continue", "CONTINUE_GLOBAL_DIR"},
	{"opencode", "OPENCODE_CONFIG_DIR"}, {"goose", "GOOSE_PATH_ROOT"}, {"crush", "CRUSH_GLOBAL_CONFIG"},
}

// DirVars lists the agents that have a DirVar, in table order. The
// caller must not change the slice.
func (t Table) DirVars() []DirVar {
	if t == nil {
		return builtinDirVars
	}
	var out []DirVar
	for _, a := range t {
		if a.DirVar != "" {
			out = append(out, DirVar{a.Name, a.DirVar})
		}
	}
	return out
}
