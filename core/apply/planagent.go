package apply

import (
	"fmt"
	"slices"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/projection"
	"github.com/agentkit/charter/core/settings"
)

// planAgents plans the agents' targets, each agent on its own (they read
// the plan's inputs and change none of them), gathering the projected
// files and the bytes each agent always loads.
type planAgents struct {
	sys    *core.System
	snap   *settings.Snapshot
	req    Request
	level  string
	preq   projection.Request
	always map[string]int
}

// agentPlan is what targets plans for one agent.
type agentPlan struct {
	targets []Target
	files   []projection.Placed
	gaps    []projection.Gap
	always  int
	err     error
}

// plan plans every agent of sel at once (placed by where), then gathers
// their files in sel's order: the same plan as one agent after another.
func (pa *planAgents) plan(sel []agents.Agent, where map[string]placement) []agentPlan {
	plans := make([]agentPlan, len(sel))
	_ = fsys.Parallel(len(sel), func(i int) error {
		plans[i] = pa.targets(sel[i], where[sel[i].Name])
		return nil
	})
	for i, a := range sel {
		if plans[i].err != nil {
			break // the first error in sel's order, as one after another
		}
		pa.preq.Files, pa.preq.Gaps = append(pa.preq.Files, plans[i].files...), append(pa.preq.Gaps, plans[i].gaps...)
		if pa.req.Content != nil {
			pa.always[a.Name] = plans[i].always
		}
	}
	return plans
}

// targets are agent a's instruction file (none when other agents' files
// serve it; two when its file imports the one holding the block) and its
// Stop hook entry. pl is its placement in a project (zero at user level).
func (pa *planAgents) targets(a agents.Agent, pl placement) (p agentPlan) {
	sys, req, level := pa.sys, pa.req, pa.level
	t := Target{Agent: a.Name, Level: level}
	var err error
	switch {
	case level == LevelProject && pl.file != "" && !pl.served():
		t.Path = projectFile(sys, req.Project.Dir, pl.file)
	case level == LevelProject:
		t.Path = a.ProjectPath(sys.Paths, req.Project.Dir)
	default:
		if t.Path, err = profile.UserPath(sys, a); err != nil {
			return agentPlan{err: err}
		}
	}
	format := a.FormatAt(level)
	r, ok := renderers.Get()[format]
	if !ok {
		return agentPlan{err: fmt.Errorf("agent %s: no renderer for format %q", a.Name, format)}
	}
	path := t.Path
	var lib Library
	var loadedHook *bool // nil: no content planned, the entry stays as it is
	if req.Content != nil {
		base := sys.Paths.Dir(t.Path)
		if level == LevelProject {
			base = req.Project.Dir
		}
		p.files, p.gaps, lib, p.always = contentFor(sys, a, level, base, req.Content, pl)
		rules := slices.ContainsFunc(p.files, func(f projection.Placed) bool { return f.Kind == content.KindRule })
		loadedHook = &rules
	}
	var out []Target
	if !pl.served() {
		block := Render(pa.snap, lib)
		if level == LevelProject {
			block = projectBlock(pa.snap, block)
		}
		if pl.via != "" {
			// The agent's file imports the one that holds the block, which
			// charter owns whole.
			via := projectFile(sys, req.Project.Dir, pl.via)
			full := block
			out = append(out, Target{Agent: a.Name, Level: level, Path: via,
				edit: func([]byte) ([][]byte, error) { return whole(full), nil }})
			block = importBlock(pl.file, pl.via)
		}
		t.edit = func(old []byte) ([][]byte, error) { return r(a, path, old, block) }
		if format == agents.FormatBlock {
			t.block = block
		}
		out = append([]Target{t}, out...)
	}
	if h, ok := stopHookOf(a.Name); ok {
		dir := sys.Paths.Dir(t.Path)
		if level == LevelProject {
			dir = sys.Paths.Join(req.Project.Dir, h.projectDir)
		}
		ht, err := hookTarget(sys, h.kind, level, sys.Paths.Join(dir, h.file), pa.snap, loadedHook)
		if err != nil {
			return agentPlan{err: err}
		}
		out = append(out, ht)
	}
	p.targets = out
	return p
}
