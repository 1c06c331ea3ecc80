package projection

import (
	"slices"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
)

// agentNamed is the table's entry for name (the zero Agent when none).
func agentNamed(name string) agents.Agent {
	all := agents.Default()
	if i := slices.IndexFunc(all, func(a agents.Agent) bool { return a.Name == name }); i >= 0 {
		return all[i]
	}
	return agents.Agent{Name: name}
}

// subagentFor renders it for the named agent in its subagent place (user
// level, else project): the file, its bytes and the note.
func subagentFor(name string, it *content.Item) (string, []byte, string) {
	a := agentNamed(name)
	p := a.User.Subagents
	if p.Dir == "" {
		p = a.Project.Subagents
	}
	data, note := subagentFile(a, p.Format, it)
	return p.Dir + it.Name + p.Ext, data, note
}
