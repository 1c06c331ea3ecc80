package projection_test

import (
	"slices"

	"github.com/agentkit/charter/core"
)

// agentNamed is the table's entry for name (the zero Agent when none).
func agentNamed(name string) core.Agent {
	all := core.DefaultAgents()
	if i := slices.IndexFunc(all, func(a core.Agent) bool { return a.Name == name }); i >= 0 {
		return all[i]
	}
	return core.Agent{Name: name}
}
