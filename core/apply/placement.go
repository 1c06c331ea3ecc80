package apply

import (
	"slices"
	"strings"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/projection"
)

// Agents read each other's files (Copilot reads CLAUDE.md, AGENTS.md,
// GEMINI.md and .claude/rules/; Cursor reads AGENTS.md and CLAUDE.md). In
// a project the plan places charter's block and rules so that every agent
// it writes for finds its block once and each of its rules once among the
// places it reads (SPEC §12 decisions of 2026-11-27). Each agent has up
// to three placements, in order of preference: its own files; a file only
// it reads, every rule written out; nothing, when the others' files serve
// it. The plan takes the combination with no agent short of or over an
// item; then the one that leaves the fewest agents that can scope a rule
// by its globs reading it unscoped; then the fewest rules meant for
// another agent; then the fewest steps from the preferred, earlier agents
// first.

// placement is where one agent's block and rules go in a project.
type placement struct {
	// serve: the files other agents get serve it; it gets none.
	serve bool
	// file holds the agent's block, project-relative ("" at user level:
	// its own file).
	file string
	// inline: its rules are written out in the block, not in its rules
	// folder.
	inline bool
	// via holds the block when file only imports it.
	via  string
	cost int
}

func (p placement) served() bool { return p.serve }

// placements are an agent's choices, preferred first.
func placements(a agents.Agent) []placement {
	_, inBlock := projection.Layout(a, content.LevelProject, content.KindRule)
	out := []placement{{file: a.ProjectFile, inline: inBlock}}
	if a.Private != "" {
		out = append(out, placement{file: a.Private, via: a.Via, inline: true, cost: 2})
	}
	return append(out, placement{serve: true, cost: 1})
}

// carrier is one place a placement puts charter's text: a block, rules,
// or both.
type carrier struct {
	path     string // project-relative; a rules folder ends in "/"
	importer string // the file whose `@` line brings it in ("" when read directly)
	block    bool
	agent    string // whose block
	// of is the index in the selection of the agent whose rules it holds
	// (all of them), -1 for none.
	of int
}

// place decides the placement of each agent in sel, but for those fixed
// (placed before and not asked for now). items are the active items; same
// maps a project-relative path to the file it is, so that a
// link between two instruction files counts as one file.
func place(sel []agents.Agent, items []content.Item, same func(string) string, fixed map[string]placement) map[string]placement {
	if same == nil {
		same = func(p string) string { return p }
	}
	opts := make([][]placement, len(sel))
	for i, a := range sel {
		opts[i] = placements(a)
		if p, ok := fixed[a.Name]; ok {
			opts[i] = []placement{p}
		}
	}
	pick := make([]placement, len(sel))
	n := 1
	for i := range opts {
		pick[i] = opts[i][0]
		n *= len(opts[i])
	}
	g := groupRules(sel, items)
	if n <= 1<<12 {
		pick = exhaustive(sel, opts, g, same)
	} else {
		pick = improve(sel, opts, pick, g, same)
	}
	best := map[string]placement{}
	for i, a := range sel {
		best[a.Name] = pick[i]
	}
	return best
}

// exhaustive tries every combination: the first best one, so that earlier
// agents keep their preferred placement.
func exhaustive(sel []agents.Agent, opts [][]placement, g *ruleGroups, same func(string) string) []placement {
	pick := make([]placement, len(sel))
	var best []placement
	var bestScore [4]int
	var walk func(i int)
	walk = func(i int) {
		if i < len(sel) {
			for _, p := range opts[i] {
				pick[i] = p
				walk(i + 1)
			}
			return
		}
		if s := score(sel, pick, g, same); best == nil || less(s, bestScore) {
			best, bestScore = slices.Clone(pick), s
		}
	}
	walk(0)
	return best
}

// improve is a local search for many agents (`--agent all` over the whole
// table): from every agent's preferred placement, each agent in turn, the
// last first, takes the placement that lowers the score most, until none
// does.
func improve(sel []agents.Agent, opts [][]placement, pick []placement, g *ruleGroups, same func(string) string) []placement {
	best := score(sel, pick, g, same)
	for changed := true; changed; {
		changed = false
		for i := len(sel) - 1; i >= 0; i-- {
			keep := pick[i]
			for _, p := range opts[i] {
				pick[i] = p
				if s := score(sel, pick, g, same); less(s, best) {
					best, keep, changed = s, p, true
				}
			}
			pick[i] = keep
		}
	}
	return pick
}

func less(a, b [4]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// carriers are the places pick puts text, merged where two paths are one
// file (the block of the agent whose rules it carries wins, as
// confineProject gives it).
func carriers(sel []agents.Agent, pick []placement, g *ruleGroups, same func(string) string) ([]carrier, int) {
	var out []carrier
	dups := 0
	byFile := map[string]int{}
	held := func(c carrier) int { // how many rules c holds
		if c.of < 0 {
			return 0
		}
		return g.count(c.of)
	}
	for i, a := range sel {
		p := pick[i]
		if p.served() {
			continue
		}
		c := carrier{path: p.file, block: true, agent: a.Name, of: -1}
		if p.via != "" {
			c.path, c.importer = p.via, p.file
		}
		if p.inline {
			c.of = i
		} else if prefix, _ := projection.Layout(a, content.LevelProject, content.KindRule); prefix != "" && g.count(i) > 0 {
			out = append(out, carrier{path: prefix, agent: a.Name, of: i})
		}
		key := same(c.path)
		if j, ok := byFile[key]; ok && c.importer == "" {
			// Two agents' blocks in one file: one is left (confineProject
			// gives it the block of the agent whose rules it carries).
			dups++
			if held(c) > held(out[j]) {
				out[j] = c
			}
			continue
		}
		byFile[key] = len(out)
		out = append(out, c)
	}
	return out, dups
}

// readsOf are the places a reads; an agent the table gives none reads its
// own file and rules folder.
func readsOf(a agents.Agent) []agents.Read {
	if len(a.Reads) > 0 {
		return a.Reads
	}
	out := []agents.Read{{Path: a.ProjectFile}}
	if prefix, _ := projection.Layout(a, content.LevelProject, content.KindRule); prefix != "" {
		out = append(out, agents.Read{Path: prefix, Scoped: true})
	}
	return out
}

// reads reports whether agent a loads c.
func reads(a agents.Agent, c carrier, same func(string) string) bool {
	for _, r := range readsOf(a) {
		switch {
		case c.importer != "":
			if r.Imports && same(r.Path) == same(c.importer) {
				return true
			}
		case strings.HasSuffix(r.Path, "/"):
			if strings.HasPrefix(c.path, r.Path) {
				return true
			}
		case same(r.Path) == same(c.path):
			return true
		}
	}
	return false
}

// score is how far pick is from every agent seeing its block and rules
// once: items missing or doubled; agents that could scope a glob rule
// reading it unscoped; rules an agent gets that were meant for another;
// the steps away from each agent's own files.
func score(sel []agents.Agent, pick []placement, g *ruleGroups, same func(string) string) [4]int {
	cs, dups := carriers(sel, pick, g, same)
	var s [4]int
	s[0] = dups
	seen := make([]int, len(g.groups)) // per group: how many carriers a reads hold it
	for i, a := range sel {
		s[3] += pick[i].cost
		prefix, _ := projection.Layout(a, content.LevelProject, content.KindRule)
		blocks, unscoped := 0, false
		clear(seen)
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
			for k, gr := range g.groups {
				if gr.gets[c.of] {
					seen[k]++
					unscoped = unscoped || (c.block && gr.globbed)
				}
			}
		}
		s[0] += abs(blocks - 1)
		if unscoped && prefix != "" {
			s[1]++
		}
		for k, gr := range g.groups {
			if gr.gets[i] {
				s[0] += gr.n * abs(seen[k]-1) // each of its rules once
			} else {
				s[2] += gr.n * seen[k] // rules meant for another agent
			}
		}
	}
	return s
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
