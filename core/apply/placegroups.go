package apply

import (
	"slices"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
)

// ruleGroups are the active rules grouped by which agents of the selection
// get them. Every placement sees the rules of one group alike (a carrier
// holds all of an agent's rules or none), so a score counts groups, not
// rules: a thousand rules for every agent are one group.
type ruleGroups struct {
	groups []ruleGroup
	counts []int // per agent of the selection: how many rules it gets
}

type ruleGroup struct {
	gets    []bool // per agent of the selection
	n       int    // how many rules
	globbed bool   // one of them has globs
}

// groupRules groups items' rules for sel.
func groupRules(sel []agents.Agent, items []content.Item) *ruleGroups {
	g := &ruleGroups{counts: make([]int, len(sel))}
	at := map[string]int{}
	key := make([]byte, len(sel))
	for _, it := range items {
		if it.Kind != content.KindRule {
			continue
		}
		gets := make([]bool, len(sel))
		for i, a := range sel {
			gets[i] = len(it.Agents) == 0 || slices.Contains(it.Agents, a.Name)
			key[i] = '0'
			if gets[i] {
				key[i] = '1'
				g.counts[i]++
			}
		}
		k, ok := at[string(key)]
		if !ok {
			k = len(g.groups)
			at[string(key)] = k
			g.groups = append(g.groups, ruleGroup{gets: gets})
		}
		g.groups[k].n++
		g.groups[k].globbed = g.groups[k].globbed || len(it.Globs) > 0
	}
	return g
}

// count is how many rules sel[i] gets (none without groups).
func (g *ruleGroups) count(i int) int {
	if g == nil {
		return 0
	}
	return g.counts[i]
}
