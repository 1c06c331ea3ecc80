package core

import "slices"

// Agent is a coding agent charter knows: how profile resolution finds its
// directory and where apply writes its instructions. Adding an agent is one
// entry in agents.
type Agent struct {
	Name       string // as in --agent, and as the companion names its provider
	File       string // the instruction file the agent reads
	DirVar     string // the variable that points at the agent's config directory
	DefaultDir string // the config directory below $HOME when DirVar is unset
}

// agents is the one table of agents, in their canonical order: the order
// apply lists them in, and the order their variables are consulted when
// charter looks for the active profile.
var agents = []Agent{
	{Name: "claude", File: "CLAUDE.md", DirVar: "CLAUDE_CONFIG_DIR", DefaultDir: ".claude"},
	{Name: "codex", File: "AGENTS.md", DirVar: "CODEX_HOME", DefaultDir: ".codex"},
}

// Agents lists every known agent in canonical order.
func Agents() []Agent { return slices.Clone(agents) }

// LookupAgent finds an agent by name.
func LookupAgent(name string) (Agent, bool) {
	i := slices.IndexFunc(agents, func(a Agent) bool { return a.Name == name })
	if i < 0 {
		return Agent{}, false
	}
	return agents[i], true
}
