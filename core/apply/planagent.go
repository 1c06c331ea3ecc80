package apply

import (
	"fmt"
	"slices"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/projection"
	"github.com/agentkit/charter/core/settings"
)

// planAgents plans each agent's targets in turn, gathering the projected
// files and the bytes each agent always loads.
type planAgents struct {
	sys    *core.System
	snap   *settings.Snapshot
	req    Request
	level  string
	preq   projection.Request
	always map[string]int
}

// targets are agent a's instruction file (none when other agents' files
// serve it; two when its file imports the one holding the block) and its
// Stop hook entry. pl is its placement in a project (zero at user level).
func (pa *planAgents) targets(a agents.Agent, pl placement) ([]Target, error) {
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
			return nil, err
		}
	}
	format := a.FormatAt(level)
	r, ok := renderers[format]
	if !ok {
		return nil, fmt.Errorf("agent %s: no renderer for format %q", a.Name, format)
	}
	path := t.Path
	var lib Library
	var loadedHook *bool // nil: no content planned, the entry stays as it is
	if req.Content != nil {
		base := sys.Paths.Dir(t.Path)
		if level == LevelProject {
			base = req.Project.Dir
		}
		files, gaps, l, n := contentFor(sys, a, level, base, req.Content, pl)
		pa.preq.Files, pa.preq.Gaps = append(pa.preq.Files, files...), append(pa.preq.Gaps, gaps...)
		pa.always[a.Name], lib = n, l
		rules := slices.ContainsFunc(files, func(f projection.Placed) bool { return f.Kind == content.KindRule })
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
			return nil, err
		}
		out = append(out, ht)
	}
	return out, nil
}
