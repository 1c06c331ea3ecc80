package doctor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/projection"
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
	lib, err := content.Load(r.ctx, r.Sys, r.scope, r.project, policyPath)
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

// contentChecks: the files apply projects at a level (flag "" for the
// user level, " --project" for the project's), as `apply --check` sees
// them, and each agent's budget, which fails over its documented limit:
// the agent silently reads only part of its instructions.
func contentChecks(full *apply.Full, flag string) []Check {
	level, label := "", "Projected files"
	if flag != "" {
		level, label = ":project", "Projected files (project)"
	}
	var out []Check
	if full.Content != nil {
		n, total := 0, 0
		var first string
		for _, e := range full.Content.Entries {
			switch e.State {
			case projection.StateUnsupported:
				continue
			case projection.StateMissing, projection.StateOutdated, projection.StateForeign, projection.StateEdited, projection.StatePruned:
				if n == 0 {
					first = fmt.Sprintf("%s (%s)", *e.Path, e.State)
				}
				n++
			}
			total++
		}
		switch {
		case n > 0:
			out = append(out, warn("projection"+level, label,
				fmt.Sprintf("%d of %d projected files out of date, the first %s: agents do not see the current rules, skills, commands and subagents", n, total, first),
				"run `charter apply"+flag+"` (`charter apply"+flag+" --check` lists them)"))
		case total > 0:
			out = append(out, ok("projection"+level, label, fmt.Sprintf("%d projected files up to date", total)))
		}
	}
	if full.Content != nil && len(full.Content.Ignored) > 0 {
		ig := full.Content.Ignored
		paths := make([]string, len(ig))
		for i, g := range ig {
			paths[i] = fmt.Sprintf("%s (claimed as %s %s %s)", g.Path, g.Agent, g.Kind, g.Item)
		}
		out = append(out, warn("record"+level, "Projection record",
			fmt.Sprintf("%d record entries name a path no projector writes, so charter ignores them: %s", len(ig), strings.Join(paths, ", ")),
			"run `charter apply"+flag+"` to drop them from the record; if the record is committed, review who changed it"))
	}
	for _, b := range full.Budget {
		if !b.Over() {
			continue
		}
		out = append(out, fail("budget:"+b.Agent+level, "Instruction budget ("+b.Agent+")",
			fmt.Sprintf("%s loads %d bytes of always-loaded instructions at this level, over its documented limit of %d: it does not read them all", b.Agent, b.Bytes, b.Limit),
			"disable rules with `charter settings set rules.disabled NAME…`, lower `rules.tier`, or scope rules with globs; then run `charter apply"+flag+"`"))
	}
	return out
}
