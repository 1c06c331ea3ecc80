package session

import (
	"context"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/settings"
)

// ApplyRequest is one apply, as a skin received it.
type ApplyRequest struct {
	Agents []string // nil: the default ones for the level
	// Project plans the project's files (and its .mcp.json) from the
	// project's effective settings, instead of the user-level ones.
	Project bool
	RunOnly bool // for Run alone: no copy of the files, no diff (apply.Request)
	Force   bool // take over projected files charter did not write or that were edited
	// Also are agents planned besides the default ones, Adopt the files
	// the projection takes over though charter did not write them: the
	// agents and native files `charter import` read.
	Also  []string
	Adopt map[string]bool
	// Hold are native files left as they are: import's clashes whose body
	// differs from the existing source (not written, no conflict).
	Hold map[string]bool

	// DryRun writes nothing: Apply reports each file as current or
	// outdated, with its diff (`--dry-run`, `--check`, GET /api/v1/apply).
	DryRun bool
	// ConfirmShared writes through links the companion shares; without it
	// Confirm, when set, is asked at the first such link (the command
	// line's question), and a refusal writes nothing.
	ConfirmShared bool
	Confirm       func(*core.SharedWriteError) (bool, error)
	// Planning, when set, is called once the plan memo has not answered,
	// before the plan and any write: the command line arms its signal
	// handlers there (a replay only reads).
	Planning func()

	// snap is the project's settings already read for the plan memo.
	snap *settings.Snapshot
}

// ErrNoProject is an apply of the project's files with no project; each
// skin says in its own words how to name one.
var ErrNoProject = &core.Error{Kind: core.CodeUsage, Msg: "there is no project to apply"}

// ApplySettings reads the settings apply renders at a level: the user
// level's without the project's layers (they serve every project: no
// project's values may leak into them), the project's from the layers
// committed with it alone (defaults, project, policy), so that the files
// `apply --project` writes are the same whoever applies (SPEC §12 pinned
// details, "Levels").
func (s *Session) ApplySettings(ctx context.Context, project bool) (*settings.Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	read := s.CommittedStore
	if !project {
		read = s.UserStore
	}
	st, err := read()
	if err != nil {
		return nil, err
	}
	return st.Read()
}

// CommittedStore is the store of the layers committed with the project:
// defaults, the project's settings.yaml and the policy; never the user's
// global or scope file, nor the personal project-local one.
func (s *Session) CommittedStore() (*settings.Store, error) {
	st, err := s.Store()
	if err != nil {
		return nil, err
	}
	return st.Committed(), nil
}

func orNoProject(err error) error {
	if err != nil {
		return err
	}
	return ErrNoProject
}

// PlanAll plans everything apply writes at the request's level, the
// content of the level included (SPEC §12), before anything is written:
// a conflict or a refused shared link then leaves every file as it was.
// Every skin plans through it, so that the CLI, the hub, MCP and doctor
// report the same files.
func (s *Session) PlanAll(ctx context.Context, req ApplyRequest) (*apply.Full, error) {
	if ctx.Err() != nil {
		return nil, apply.Stopped(ctx)
	}
	if req.Project {
		if p, err := s.Project(); err != nil || p == nil {
			return nil, orNoProject(err)
		}
	}
	if !req.Project && len(req.Also) == 0 {
		// Doctor plans through PlanWith and warns instead (SPEC §12).
		if err := apply.MixedProfiles(s.Sys, req.Agents); err != nil {
			return nil, err
		}
	}
	snap := req.snap
	if snap == nil {
		var err error
		if snap, err = s.ApplySettings(ctx, req.Project); err != nil {
			return nil, err
		}
	}
	full, err := s.PlanWith(ctx, snap, req)
	if err == nil && ctx.Err() != nil {
		return nil, apply.Stopped(ctx)
	}
	return full, err
}

// PlanWith is PlanAll from settings already read (doctor reads them
// itself, to tell settings that cannot be read from files apply cannot
// edit): snap must be ApplySettings' for the level.
func (s *Session) PlanWith(ctx context.Context, snap *settings.Snapshot, req ApplyRequest) (*apply.Full, error) {
	r := apply.Request{Agents: req.Agents, Also: req.Also, RunOnly: req.RunOnly}
	if req.Project {
		p, err := s.Project()
		if err != nil || p == nil {
			return nil, orNoProject(err)
		}
		r.Project = p
	}
	var err error
	if r.Content, err = s.content(ctx, snap, r.Project, req.Force); err != nil {
		return nil, err
	}
	if r.Content != nil {
		r.Content.Adopt, r.Content.Hold = req.Adopt, req.Hold
	}
	return apply.PlanAll(ctx, s.Sys, snap, r)
}

// content is what apply projects at a level: nil when there is nothing to
// project and nothing was ever projected (the instruction files alone).
func (s *Session) content(ctx context.Context, snap *settings.Snapshot, proj *core.Project, force bool) (*apply.Content, error) {
	items, err := s.activeItems(ctx, snap, proj)
	if err != nil {
		return nil, err
	}
	out := &apply.Content{Items: items, Force: force, Autoload: snap.Values["skills.autoload"] != false}
	var record string
	if proj != nil {
		record = s.Sys.Paths.Join(proj.Dir, core.ProjectDirName, "projection.lock")
	} else {
		// The scope the settings were read for (doctor's resolved one even
		// when the root cannot be created yet).
		record = s.Sys.Paths.Join(snap.Scope.Path, "state", "projection.json")
		out.RecordPath = record
	}
	if len(items) == 0 {
		if _, err := s.Sys.Fs.Stat(record); err != nil {
			return nil, nil
		}
	}
	return out, nil
}
