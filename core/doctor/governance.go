package doctor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/apply"
)

// policyDenies: every deny of the policy must reach each agent apply
// writes for; an agent that cannot express one would let it pass, so that
// fails (SPEC §14). It reads apply's plans of both levels, as agentFiles
// and projectFiles made them: the agents are the ones apply selects.
func policyDenies(r *run) []Check {
	const name, label = "policy-denies", "Policy denies"
	if r.policy == nil {
		return nil
	}
	denies := r.policy.PolicyRules("deny")
	if len(denies) == 0 {
		return nil
	}
	var gaps []apply.GovUnsupported
	if full, err := r.plan(); err == nil && full != nil {
		gaps = append(gaps, full.Unsupported...)
	}
	if r.projectFull != nil {
		gaps = append(gaps, r.projectFull.Unsupported...)
	}
	type key struct{ agent, level string }
	missing := map[key][]string{}
	reason := map[key]string{}
	var order []key
	for _, g := range gaps {
		rule, isDeny := strings.CutPrefix(g.What, "deny ")
		if !isDeny || !slices.Contains(denies, rule) {
			continue
		}
		k := key{g.Agent, g.Level}
		if _, seen := missing[k]; !seen {
			order = append(order, k)
		}
		missing[k], reason[k] = append(missing[k], rule), g.Reason
	}
	if len(order) == 0 {
		return []Check{ok(name, label, fmt.Sprintf("the policy's %d deny rules reach every agent apply writes for", len(denies)))}
	}
	out := make([]Check, 0, len(order))
	for _, k := range order {
		flag := ""
		if k.level == apply.LevelProject {
			flag = " --project"
		}
		them := "it"
		if len(missing[k]) > 1 {
			them = "them"
		}
		out = append(out, fail(name+":"+k.agent+":"+k.level, "Policy denies ("+k.agent+")",
			fmt.Sprintf("%s cannot be told the policy's deny of %s at %s level (%s), so it does not enforce %s", k.agent, strings.Join(missing[k], ", "), k.level, reason[k], them),
			fmt.Sprintf("use an agent that enforces them (`charter permissions check RULE --agent AGENT` says which), or leave %s out: `charter apply%s --agent` with the others", k.agent, flag)))
	}
	return out
}
