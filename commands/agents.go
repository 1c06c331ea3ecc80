package commands

import (
	"fmt"
	"io"

	"github.com/agentkit/charter/core/agents"
)

// AgentsCmd is `charter agents`: the agent table (SPEC §17).
type AgentsCmd struct{}

// AgentsDoc is the answer of `charter agents --json`.
type AgentsDoc struct {
	Agents []agents.AgentDoc `json:"agents"`
}

func (c *AgentsCmd) Run(a *App) error {
	doc := AgentsDoc{Agents: []agents.AgentDoc{}}
	for _, ag := range a.Sys.AgentTable.All() {
		doc.Agents = append(doc.Agents, ag.Doc())
	}
	return a.emit(doc, func(w io.Writer) {
		fmt.Fprintf(w, "%-12s %-32s %-44s %s\n", "AGENT", "PROJECT FILE", "PROJECT RULES", "VERIFIED")
		for _, d := range doc.Agents {
			file := d.Project.Instructions
			if file == "" {
				file = "-"
			}
			fmt.Fprintf(w, "%-12s %-32s %-44s %s\n", d.Name, file, d.Project.Rules, d.Verified)
		}
		fmt.Fprintln(w, "\n`charter agents --json` gives every place per kind and level, what each agent reads, and the sources; docs/agents.md shows the same.")
	})
}
