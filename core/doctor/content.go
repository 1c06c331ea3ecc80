package doctor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/settings"
)

// contentSources: the rules, skills, commands and subagents of every
// layer read (a malformed one fails), and a settings file that names a
// policy item in rules.disabled or skills.disabled, which is ignored for
// that item (SPEC §12 pinned details).
func contentSources(r *run) []Check {
	const name, label = "content", "Rules, skills, commands, subagents"
	if r.scopeErr != nil {
		return r.needScope(name, label)
	}
	policyPath, _ := settings.PolicyPath(r.Sys)
	lib, err := content.Load(r.Sys, r.scope, r.project, policyPath)
	if err != nil {
		return []Check{fail(name, label, err.Error(), "fix the source named above; `charter rules list` shows the sources once they read")}
	}
	counts := map[content.Kind]int{}
	for _, e := range lib.Effective("", content.Selection{Tier: content.TierFull}) {
		counts[e.Kind]++
	}
	out := []Check{ok(name, label, fmt.Sprintf("%d rules, %d skills, %d commands, %d subagents", counts[content.KindRule],
		counts[content.KindSkill], counts[content.KindCommand], counts[content.KindSubagent]))}
	snap, err := r.store.Read()
	if err != nil {
		return out // the settings check reports it
	}
	for _, k := range []struct {
		key  string
		kind content.Kind
	}{{settings.KeyRulesDisabled, content.KindRule}, {settings.KeySkillsDisabled, content.KindSkill}} {
		names, _ := snap.Values[k.key].([]string)
		policy := lib.PolicyNames(k.kind)
		var named []string
		for _, n := range names {
			if slices.Contains(policy, n) {
				named = append(named, n)
			}
		}
		if len(named) > 0 {
			out = append(out, warn(name, label,
				fmt.Sprintf("%s in %s names the policy %s %s: it is ignored, policy items are always active", k.key, snap.Origins[k.key], k.kind, strings.Join(named, ", ")),
				fmt.Sprintf("remove %s from %s in %s", strings.Join(named, ", "), k.key, snap.Origins[k.key])))
		}
	}
	return out
}
