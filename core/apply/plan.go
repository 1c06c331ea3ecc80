package apply

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/projection"
	"github.com/agentkit/charter/core/settings"
)

// Request is what to plan.
type Request struct {
	Agents []string // nil: the default ones for the level
	// Also are agents planned besides the default ones (Agents nil): the
	// agents `charter import` read from.
	Also []string
	// Project, when set, plans the project's files instead of the
	// user-level ones, charter's entry in its .mcp.json last.
	Project *core.Project
	// RunOnly plans for Run alone: the targets keep no copy of their files
	// (Old and New stay nil, so Status has no diff to show), and an
	// instruction file is not read by Plan at all: Run reads it once, a
	// piece at a time, under its lock (Current is then false until Run).
	RunOnly bool
	// Content, when set, projects the level's active items too (SPEC §12):
	// planned with the rest, before anything is written.
	Content *Content
}

// Plan renders snap for the chosen agents' user-level files (nil: the
// default ones) and reads each target.
func Plan(ctx context.Context, sys *core.System, snap *settings.Snapshot, names []string) ([]Target, error) {
	return PlanRequest(ctx, sys, snap, Request{Agents: names})
}

// PlanRequest renders snap for req's targets and reads each one. A target
// that cannot be edited safely (broken markers, a malformed .mcp.json)
// fails the whole plan, so that nothing is written.
func PlanRequest(ctx context.Context, sys *core.System, snap *settings.Snapshot, req Request) ([]Target, error) {
	full, err := PlanAll(ctx, sys, snap, req)
	if err != nil {
		return nil, err
	}
	return full.Targets, nil
}

// PlanAll is PlanRequest with the content projection: every file apply
// would touch, decided before any is written. A cancelled ctx stops it
// between files, with Stopped's error.
func PlanAll(ctx context.Context, sys *core.System, snap *settings.Snapshot, req Request) (*Full, error) {
	level := LevelUser
	if req.Project != nil {
		level = LevelProject
	}
	sel, err := selectAgents(sys, req.Agents, level, req.Project)
	if len(req.Agents) == 0 && len(req.Also) > 0 {
		sel, err = withAlso(sys, sel, err, req.Also, level)
	}
	if err != nil {
		return nil, err
	}
	full := &Full{}
	if req.Project != nil {
		full.root = req.Project.Dir
	}
	if level == LevelUser {
		sel, full.Skipped = profileSkips(sys, sel, req.Agents)
		var shared []Result
		sel, shared = sharedUserFiles(sys, sel, len(req.Agents) > 0)
		full.Skipped = append(full.Skipped, shared...)
	}
	var where map[string]placement
	var same func(string) string
	var placed []string
	if level == LevelProject {
		where, same, placed = placeProject(sys, sel, req.Project.Dir, req.Content)
		if req.Content != nil && req.Content.Adopt != nil {
			sel = withServers(sys, sel, where, same) // an import's (Adopt)
		}
	}
	out := make([]Target, 0, len(sel)+1)
	pa := planAgents{sys: sys, snap: snap, req: req, level: level, always: map[string]int{}}
	plans := pa.plan(sel, where)
	for i, a := range sel {
		pl, placed := where[a.Name]
		if placed && pl.served() {
			full.Skipped = append(full.Skipped, Result{Agent: a.Name, Level: level, Path: a.ProjectPath(sys.Paths, req.Project.Dir),
				State: StateSkipped, Reason: servedBy(a, sys.AgentTable.All(), where, same)})
		}
		if err := plans[i].err; err != nil {
			return nil, err
		}
		out = append(out, plans[i].targets...)
		if placed {
			out = append(out, unplaced(sys, req.Project.Dir, a, pl, chosenFiles(where, same), same)...)
		}
	}
	preq, always := pa.preq, pa.always
	if level == LevelProject {
		path := sys.Paths.Join(req.Project.Dir, MCPFile)
		out = append(out, Target{Agent: MCPTarget, Level: level, Path: path, kind: fsys.KindAgentJSON, edit: func(old []byte) ([][]byte, error) {
			data, err := MergeMCPJSON(old, ProjectMCPEntry())
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			return whole(data), nil
		}})
	}
	// The record of the permission and server entries charter wrote: the
	// scope's at user level (none without a scope: then none are written).
	bookPath, bookRoot := "", ""
	if snap.Scope.Path != "" {
		bookPath = sys.Paths.Join(snap.Scope.Path, GovStateFile)
	}
	if level == LevelProject {
		bookPath, bookRoot = sys.Paths.Join(req.Project.Dir, GovLockFile), req.Project.Dir
	}
	book, err := readGovBook(sys, bookPath, bookRoot, level)
	if err != nil {
		return nil, err
	}
	gsel := sel
	if level == LevelUser {
		gsel = append(slices.Clone(sel), govOnlyAgents(sys, req.Agents)...)
	}
	files, gaps, err := govEdits(sys, snap, level, gsel, func(a agents.Agent) (string, error) {
		if level == LevelProject {
			return req.Project.Dir, nil
		}
		return profile.AgentDir(sys, a)
	}, book)
	if err != nil {
		return nil, err
	}
	if bookPath == "" {
		files = nil // no scope to keep a record in: nothing is written that could not be taken out again
	}
	out, full.Unsupported, full.book = addGovTargets(out, files, book), gaps, book
	if level == LevelProject {
		confineProject(sys, req.Project.Dir, out)
	}
	for i := range out {
		if ctx.Err() != nil {
			return nil, Stopped(ctx)
		}
		if err := out[i].plan(sys, req.RunOnly); err != nil {
			return nil, err
		}
	}
	full.Targets = out
	if req.Content != nil {
		preq.Gaps = append(preq.Gaps, unplacedGaps(sys, req.Agents, sel, level, req.Content)...)
		preq.Force, preq.Adopt, preq.Hold = req.Content.Force, req.Content.Adopt, req.Content.Hold
		if level == LevelProject {
			preq.Drop = servedNatives(sys, sel, where, req.Project.Dir, req.Content.Adopt)
		}
		preq.Others = map[string]bool{}
		for _, a := range sys.AgentTable.All() {
			if !slices.ContainsFunc(sel, func(s agents.Agent) bool { return s.Name == a.Name }) {
				preq.Others[a.Name] = true
			}
		}
		preq.RecordPath, preq.Placed, preq.Table = req.Content.RecordPath, placed, sys.AgentTable.All()
		if level == LevelUser {
			preq.Bases = userBases(sys)
		}
		if level == LevelProject {
			preq.Root = req.Project.Dir
			preq.RecordPath = sys.Paths.Join(req.Project.Dir, ".charter", "projection.lock")
		}
		if full.Content, err = projection.Make(ctx, sys, preq); err != nil {
			if ctx.Err() != nil {
				return nil, Stopped(ctx)
			}
			return nil, err
		}
		full.Budget = budgets(sys, sel, out, always, req.Project, where, preq.Files)
		if req.Project != nil {
			full.root = req.Project.Dir
		}
	}
	return full, nil
}

// plan reads the target and finds what Run would make of it. With runOnly
// the file's bytes are dropped once the verdict is known.
func (t *Target) plan(sys *core.System, runOnly bool) error {
	// A repository's link out of the project is refused before anything
	// is read: a dry run must not show a diff of the user's own files.
	// Every target is planned before any is written (SPEC §16).
	if err := sys.Preflight(t.Path, t.writeOptions(true)); err != nil {
		if t.within != "" {
			return err
		}
		return fmt.Errorf("%w; apply writes all of its files or none: nothing was written", err)
	}
	var err error
	if runOnly && t.block != nil {
		// Run reads the file under its lock and leaves a current one
		// alone, so reading it here first would only read it twice.
		err = t.shared(sys)
		return err
	}
	if t.block != nil {
		if ok, err := t.planWindow(sys); err != nil || ok {
			if err == nil {
				err = t.shared(sys)
			}
			return err
		}
		t.diff = "" // lines too long for a window: read it whole
	}
	old, err := t.read(sys)
	if err != nil {
		return err
	}
	parts, err := t.edit(old)
	if err != nil {
		return err
	}
	t.missing, t.current = old == nil, unchanged(old, parts)
	if !runOnly {
		t.Old, t.New = old, join(parts)
	}
	err = t.shared(sys)
	return err
}

// shared notes the link the companion shares on the way to the file, or
// the shared source it is, with the profiles that read it.
func (t *Target) shared(sys *core.System) error {
	sh, err := sys.SharedAt(t.Path)
	t.SharedPath, t.Readers = sh.Path, sh.Readers
	return err
}

// unplacedGaps reports, when every agent was asked for, the items of the
// agents that read no file at this level (Cursor and Copilot at user
// level) as unsupported, rather than dropping them without a word.
func unplacedGaps(sys *core.System, names []string, sel []agents.Agent, level string, c *Content) []projection.Gap {
	if !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(strings.TrimSpace(n), All) }) {
		return nil
	}
	lvl := content.LevelUser
	if level == LevelProject {
		lvl = content.LevelProject
	}
	var out []projection.Gap
	for _, a := range sys.AgentTable.All() {
		if slices.ContainsFunc(sel, func(s agents.Agent) bool { return s.Name == a.Name }) {
			continue
		}
		out = append(out, projection.Project(a, c.Items, projection.Options{Level: lvl, Autoload: c.Autoload}).Gaps...)
	}
	return out
}

// userBases are the agents' directories of the active profile: the only
// places a user-level record entry may be acted on.
func userBases(sys *core.System) map[string]string {
	out := map[string]string{}
	for _, a := range sys.AgentTable.All() {
		if p, err := profile.UserPath(sys, a); err == nil {
			out[a.Name] = sys.Paths.Dir(p)
		}
	}
	return out
}
