package session

import (
	"context"
	"errors"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/projection"
)

// UninstallChange is one file uninstall changes.
type UninstallChange struct {
	Path  string `json:"path"`
	Agent string `json:"agent,omitempty"`
	// What is taken out: block, hook, mcp (an entry in the file), entries
	// (permissions and servers), record, file (a projected file), original
	// (a file import took over, put back), sources (a source folder).
	What  string `json:"what"`
	State string `json:"state"` // removed, deleted, restored, left, blocked, edited; "would ..." in a dry run
}

// UninstallDoc is the result of one uninstall, for every skin.
type UninstallDoc struct {
	Level   string            `json:"level"`
	DryRun  bool              `json:"dryRun"`
	Changes []UninstallChange `json:"changes"`
}

// Uninstall takes charter out of the agents' files at the request's level
// (SPEC §16): plan, refuse an edited projected file unless forced, then
// (unless a dry run) run it and remove the source folders when asked.
func (s *Session) Uninstall(ctx context.Context, req UninstallRequest) (UninstallDoc, error) {
	doc := UninstallDoc{Level: apply.LevelUser, DryRun: req.DryRun}
	command := "charter uninstall"
	if req.Project {
		doc.Level, command = apply.LevelProject, command+" --project"
	}
	u, err := s.planUninstall(ctx, req)
	if err != nil {
		return doc, err
	}
	var sources []string
	if req.Sources {
		if sources, err = s.sourceFolders(req.Project); err != nil {
			return doc, err
		}
	}
	if u.Full.Content != nil {
		if err := u.Full.Content.Conflict(); err != nil {
			return doc, core.Errorf(core.CodeProjectionConflict, "%s\nnothing was changed: put the file back as charter wrote it, or run `%s --force` to leave it as it is", s.Sys.ErrorMessage(err), command)
		}
	}
	if req.DryRun {
		doc.Changes = planned(u, sources)
		return doc, nil
	}
	confirm := req.ConfirmShared
	var results []apply.Result
	var restored, left []string
	err = guarded(req.ConfirmShared, req.Confirm, func(ok bool) error {
		confirm = ok
		if err := u.Full.Guard(s.Sys, ok); err != nil {
			return err
		}
		var err error
		results, restored, left, err = s.runUninstall(ctx, u, ok)
		return err
	})
	if err != nil {
		return doc, err
	}
	doc.Changes = done(u, results, restored, left)
	if len(sources) > 0 {
		if err := s.removeSources(ctx, sources, u.Root, confirm); err != nil {
			return doc, err
		}
		for _, p := range sources {
			doc.Changes = append(doc.Changes, UninstallChange{Path: p, What: "sources", State: "deleted"})
		}
	}
	return doc, nil
}

// guarded runs write; when a shared link blocks it and ask says yes, it
// runs it again confirmed. A no is a cancel: nothing was written.
func guarded(confirmed bool, ask func(*core.SharedWriteError) (bool, error), write func(confirm bool) error) error {
	err := write(confirmed)
	var se *core.SharedWriteError
	if confirmed || ask == nil || !errors.As(err, &se) {
		return err
	}
	ok, perr := ask(se)
	if perr != nil {
		return perr
	}
	if !ok {
		return core.Errorf(core.CodeCancelled, "cancelled: nothing was written (%s is shared by agent-switch)", se.SharedPath)
	}
	return write(true)
}

// what names what a target takes out of its file.
func what(t apply.Target) string {
	if _, hook := t.StopHook(); hook {
		return "hook"
	}
	if t.Agent == apply.MCPTarget {
		return "mcp"
	}
	if t.Agent == apply.GovRecordAgent {
		return "record"
	}
	if t.Governs() {
		return "entries"
	}
	return "block"
}

// planned is a dry run's changes.
func planned(u *uninstallPlan, sources []string) []UninstallChange {
	out := []UninstallChange{}
	for _, t := range u.Full.Targets {
		state := "would remove"
		if t.New == nil {
			state = "would delete"
		}
		out = append(out, UninstallChange{Path: t.Path, Agent: t.Agent, What: what(t), State: state})
	}
	out = append(out, projected(u, "would delete")...)
	for _, f := range u.Restore {
		out = append(out, UninstallChange{Path: f.Path, What: "original", State: "would restore"})
	}
	for _, p := range sources {
		out = append(out, UninstallChange{Path: p, What: "sources", State: "would delete"})
	}
	return out
}

// projected are the recorded files the plan deletes (or, forced, lets go).
func projected(u *uninstallPlan, deleted string) []UninstallChange {
	var out []UninstallChange
	if u.Full.Content == nil {
		return out
	}
	for _, e := range u.Full.Content.Entries {
		if e.Path == nil {
			continue
		}
		state := e.State
		if state == projection.StatePruned {
			state = deleted
		}
		out = append(out, UninstallChange{Path: *e.Path, Agent: e.Agent, What: "file", State: state})
	}
	return out
}

// done is a run's changes.
func done(u *uninstallPlan, results []apply.Result, restored, left []string) []UninstallChange {
	out := []UninstallChange{}
	for i, r := range results {
		state := r.State
		switch r.State {
		case apply.StateWritten:
			state = "removed"
		case projection.StatePruned:
			state = "deleted"
		}
		out = append(out, UninstallChange{Path: r.Path, Agent: r.Agent, What: what(u.Full.Targets[i]), State: state})
	}
	out = append(out, projected(u, "deleted")...)
	for _, p := range restored {
		out = append(out, UninstallChange{Path: p, What: "original", State: "restored"})
	}
	for _, p := range left {
		out = append(out, UninstallChange{Path: p, What: "original", State: "left"})
	}
	return out
}
