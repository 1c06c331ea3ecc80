package projection

import (
	"slices"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
)

// Receivers lists the agents among those given that get item it at level when
// it is active: those with a place for its kind there (a folder, or for a
// rule the managed block of the instruction file), and for a rule with an
// agents field only the ones it names. Project's choice, in one place.
func Receivers(among []agents.Agent, level string, it *content.Item) []string {
	out := []string{}
	for _, a := range among {
		if it.Kind == content.KindRule && len(it.Agents) > 0 && !slices.Contains(it.Agents, a.Name) {
			continue
		}
		if prefix, inBlock := Layout(a, level, it.Kind); prefix != "" || inBlock {
			out = append(out, a.Name)
		}
	}
	return out
}
