package apply

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/projection"
)

// scoreByRule is score as it was written before rules were grouped: each
// rule counted on its own. The grouped score must agree with it.
func scoreByRule(sel []agents.Agent, pick []placement, items []content.Item, same func(string) string) [4]int {
	rulesFor := func(agent string) []string {
		var out []string
		for _, it := range items {
			if it.Kind == content.KindRule && (len(it.Agents) == 0 || slices.Contains(it.Agents, agent)) {
				out = append(out, it.Name)
			}
		}
		return out
	}
	globbed := map[string]bool{}
	for _, it := range items {
		if it.Kind == content.KindRule && len(it.Globs) > 0 {
			globbed[it.Name] = true
		}
	}
	cs, dups := carriers(sel, pick, groupRules(sel, items), same)
	var s [4]int
	s[0] = dups
	for i, a := range sel {
		s[3] += pick[i].cost
		prefix, _ := projection.Layout(a, content.LevelProject, content.KindRule)
		blocks, seen, unscoped := 0, map[string]int{}, false
		for _, c := range cs {
			if !reads(a, c, same) {
				continue
			}
			if c.block {
				blocks++
			}
			if c.of < 0 {
				continue
			}
			for _, r := range rulesFor(sel[c.of].Name) {
				seen[r]++
				unscoped = unscoped || (c.block && globbed[r])
			}
		}
		s[0] += abs(blocks - 1)
		if unscoped && prefix != "" {
			s[1]++
		}
		for _, r := range rulesFor(a.Name) {
			s[0] += abs(seen[r] - 1)
			delete(seen, r)
		}
		for _, n := range seen {
			s[2] += n
		}
	}
	return s
}

// For random selections, rule sets (some for a few agents, some with
// globs) and every combination of placements, the grouped score is the
// score rule by rule.
func TestGroupedScoreIsPerRule(t *testing.T) {
	all := agents.Default()
	r := rand.New(rand.NewPCG(1, 2))
	same := func(p string) string { return p }
	for round := range 60 {
		sel := slices.Clone(all)
		r.Shuffle(len(sel), func(i, j int) { sel[i], sel[j] = sel[j], sel[i] })
		sel = sel[:1+r.IntN(5)]
		var items []content.Item
		for i := range r.IntN(12) {
			it := content.Item{Kind: content.KindRule, Name: fmt.Sprintf("r%d", i)}
			if r.IntN(3) == 0 {
				it.Globs = []string{"src/**"}
			}
			if r.IntN(3) == 0 {
				it.Agents = []string{all[r.IntN(len(all))].Name, sel[r.IntN(len(sel))].Name}
			}
			items = append(items, it)
		}
		opts := make([][]placement, len(sel))
		for i, a := range sel {
			opts[i] = placements(a)
		}
		pick := make([]placement, len(sel))
		var walk func(i int)
		walk = func(i int) {
			if i < len(sel) {
				for _, p := range opts[i] {
					pick[i] = p
					walk(i + 1)
				}
				return
			}
			if got, want := score(sel, pick, groupRules(sel, items), same), scoreByRule(sel, pick, items, same); got != want {
				t.Fatalf("round %d: grouped score %v, rule by rule %v (agents %v, rules %+v, pick %+v)", round, got, want, agents.Table(sel).Names(), items, pick)
			}
		}
		walk(0)
	}
}
