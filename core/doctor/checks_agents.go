package doctor

import (
	"errors"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/settings"
	srcs "github.com/agentkit/charter/core/sources"
)

// agentFiles: whether each agent's instruction file holds the current
// settings.
func agentFiles(r *run) []Check {
	const name, label = "agent-files", "Agent files"
	if r.scopeErr != nil {
		return r.needScope(name, label)
	}
	full, err := r.plan()
	switch {
	case r.unreadable && r.policyErr != nil:
		return []Check{warn(name, label, "not checked: the policy cannot be read (see above)", "fix the policy file first")}
	case r.unreadable:
		return []Check{warn(name, label, "not checked: the settings cannot be read (see above)", "fix the settings file first")}
	case errors.Is(err, srcs.ErrNotCached):
		return []Check{warn(name, label, "not checked: "+err.Error(), "run `charter apply` once while the source's remote is reachable")}
	case core.ErrorCode(err) == core.CodeNoAgent:
		return []Check{warn(name, label, err.Error(), "create the agent's directory, or write for one with `charter apply --agent claude`")}
	case err != nil:
		return []Check{fail(name, label, err.Error(), "fix the file by hand, then run `charter apply`")}
	}
	out := make([]Check, 0, len(full.Targets))
	for _, t := range full.Targets {
		if t.Agent == apply.GovRecordAgent {
			continue // charter's own record, not an agent's file
		}
		n, l := "agent-file:"+t.Agent, "Agent file ("+t.Agent+")"
		switch {
		case t.Missing():
			out = append(out, warn(n, l, t.Path+" is not written yet: the agent does not know these settings", "run `charter apply`"))
		case t.Current():
			out = append(out, ok(n, l, t.Path+" is up to date"))
		default:
			out = append(out, warn(n, l, t.Path+" is out of date: the agent still follows the earlier settings",
				"run `charter apply` (`charter apply --dry-run` shows the changes)"))
		}
	}
	return append(out, contentChecks(full, "")...)
}

// plan is what `charter apply` would do, computed once per run.
func (r *run) plan() (*apply.Full, error) {
	if r.planned {
		return r.full, r.planErr
	}
	r.planned = true
	if r.scopeErr != nil {
		r.planErr = r.scopeErr
		return nil, r.planErr
	}
	if r.policyErr != nil {
		r.unreadable, r.planErr = true, r.policyErr
		return nil, r.planErr
	}
	// The user-level files, as `charter apply` renders them: without the
	// project's layers.
	snap, err := settings.Open(r.Sys, r.scope, nil, r.policy).Read()
	if err != nil {
		r.unreadable, r.planErr = true, err
		return nil, r.planErr
	}
	r.full, r.planErr = r.Session.Plan(r.ctx, snap, false)
	return r.full, r.planErr
}

// projectFiles: inside a project, whether each of its files that `charter
// apply --project` writes holds the project's current settings, as
// `charter apply --project --check` sees them. Only the files there count:
// most projects keep some agents' files and not others, and one that does
// not exist is nothing to fix. A file apply --project cannot edit is a
// warning, not a failure: charter itself works without the project's files.
func projectFiles(r *run) []Check {
	const name, label = "project-files", "Project files"
	if r.project == nil || r.scopeErr != nil {
		return nil
	}
	if r.plan(); r.unreadable {
		return nil // the agent files' line already says why nothing was checked
	}
	// As `apply --project` renders them: from the committed layers alone.
	snap, err := r.store.Committed().Read()
	if err != nil {
		return []Check{warn(name, label, "not checked: the project's settings cannot be read (see above)", "fix the project's settings file first")}
	}
	full, err := r.projectFull, r.projectPlanErr
	if !r.projectPlanned {
		full, err = r.Session.Plan(r.ctx, snap, true)
		r.projectPlanned, r.projectFull, r.projectPlanErr = true, full, err
	}
	if err != nil {
		return []Check{warn(name, label, err.Error(), "fix the file by hand, then run `charter apply --project`")}
	}
	hook := r.Sys.Paths.Join(r.project.Dir, ".claude", apply.HookFile)
	var out []Check
	for _, t := range full.Targets {
		if t.Missing() {
			continue
		}
		n, l := "agent-file:"+t.Agent+":project", "Project file ("+t.Agent+")"
		if t.Current() {
			out = append(out, ok(n, l, t.Path+" is up to date"))
			continue
		}
		msg := t.Path + " is out of date: agents here do not follow the project's current settings"
		switch {
		case t.Agent == apply.MCPTarget:
			msg = t.Path + " is out of date: it lacks charter's current MCP server entry"
		case t.Path == hook:
			msg = t.Path + " is out of date: its charter Stop hook entry does not match the required gates"
		}
		out = append(out, warn(n, l, msg, "run `charter apply --project` (`charter apply --project --dry-run` shows the changes)"))
	}
	if len(out) == 0 {
		out = append(out, ok(name, label, "no agent file in the project yet (`charter apply --project` writes them with the project's settings)"))
	}
	return append(out, contentChecks(full, " --project")...)
}

// projectPlan is `charter apply --project`'s plan, as projectFiles made it;
// none outside a project or when it could not be made.
func (r *run) projectPlan() []apply.Target {
	if !r.projectPlanned || r.projectFull == nil {
		return nil
	}
	return r.projectFull.Targets
}
