package apply

import (
	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
)

// MCPPath is where agent a keeps its MCP servers at level, dir being the
// agent's directory (user) or the project root: import reads the file
// apply writes.
func MCPPath(sys *core.System, a agents.Agent, level, dir string) string {
	pl := a.At(level)
	if pl.MCP == "" {
		return ""
	}
	return mcpPath(sys, a, level, dir, pl.MCP)
}
