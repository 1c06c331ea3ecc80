package projection_test

import (
	"slices"

	"github.com/agentkit/charter/core/agents"
)

// agentNamed is the table's entry for name (the zero Agent when none).
func agentNamed(name string) agents.Agent {
	all := agents.Default()
	if i := slices.IndexFunc(all, func(a agents.Agent) bool { return a.Name == name }); i >= 0 {
		return all[i]
	}
	return agents.Agent{Name: name}
}
