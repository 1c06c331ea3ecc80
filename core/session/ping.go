package session

import (
	"context"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/projection"
	"github.com/agentkit/charter/core/settings"
)

// Ping is the ping document every skin renders (`charter ping`, GET
// /api/v1/ping, MCP's ping): this charter, its scope, the project and
// policy in force, the profiles of different providers the variables
// name, and the project's trust state. A settings file that cannot be
// read leaves the trust unknown, with the reason: ping still answers.
func (s *Session) Ping(ctx context.Context) (core.PingDoc, error) {
	if err := ctx.Err(); err != nil {
		return core.PingDoc{}, err
	}
	// The layer reads (and ping's lock read) walk the same folders:
	// each starts where the last left off, not from "/".
	defer s.Sys.Files.Hold()()
	sc, err := s.Scope()
	if err != nil {
		return core.PingDoc{}, err
	}
	project, err := s.Project()
	if err != nil {
		return core.PingDoc{}, err
	}
	// One read of the policy: the document names it, the store layers it
	// (with its sources' items, which only a project's trust state needs).
	policy, policyErr := settings.LoadPolicy(s.Sys)
	doc := core.Ping(sc, s.version()).WithLayers(project, s.policyFile(policy, policyErr)).WithMixed(profile.Mixed(s.Sys))
	if project != nil {
		if st, err := s.storeWith(func() (*settings.Policy, error) { return s.policyWithItems(policy, policyErr) }); err != nil {
			doc.Trust = &core.TrustState{State: gates.TrustUnknown, Error: s.Sys.ErrorMessage(err)}
		} else {
			doc.Trust = gates.TrustStateOf(s.Sys, st)
		}
	}
	return doc, nil
}

// policyFile is the policy file ping names, from the session's read of
// it: the file read, or the one that could not be (malformed, a dangling
// link, unreadable), so that a host sees which file to fix; "" when there
// is none.
func (s *Session) policyFile(pol *settings.Policy, err error) string {
	switch {
	case pol != nil:
		return pol.Path
	case err == nil:
		return ""
	}
	path, err := settings.PolicyPath(s.Sys)
	if err != nil {
		return ""
	}
	return path
}

// StatusDoc is the ping document with where the project was looked for
// and the state of the agent files: MCP's status.
type StatusDoc struct {
	core.PingDoc
	WorkDir     string      `json:"workDir" jsonschema:"the directory the project is looked for from: the client's first root, else charter's working directory"`
	WorkDirNote string      `json:"workDirNote,omitempty" jsonschema:"why workDir is charter's working directory although the client announced roots (its roots/list failed, timed out or named no file:// directory); absent otherwise"`
	Apply       ApplyStatus `json:"apply"`
}

// ApplyStatus is `charter apply --check` without the diffs: whether each
// agent's instruction file holds the current settings. When charter cannot
// tell (no agent directory, broken markers), Targets is empty and Error says why.
type ApplyStatus struct {
	Targets []apply.Result `json:"targets"`
	// Files and Budget are the projected files and the budget per agent,
	// as `charter apply --check --json` reports them.
	Files  []projection.Entry `json:"files,omitempty"`
	Budget []apply.Budget     `json:"budget,omitempty"`
	Error  *core.ErrorBody    `json:"error,omitempty"`
}

// Status is Ping with the state of the user-level agent files. Unlike
// ping it fails when a settings layer cannot be read, as every other read
// does.
func (s *Session) Status(ctx context.Context) (StatusDoc, error) {
	if _, _, err := s.Read(); err != nil {
		return StatusDoc{}, err
	}
	ping, err := s.Ping(ctx)
	if err != nil {
		return StatusDoc{}, err
	}
	doc := StatusDoc{PingDoc: ping, WorkDir: s.opts.From, Apply: ApplyStatus{Targets: []apply.Result{}}}
	if doc.WorkDir == "" {
		if doc.WorkDir, err = s.Sys.Getwd(); err != nil {
			return StatusDoc{}, err
		}
	}
	full, err := s.PlanAll(ctx, ApplyRequest{})
	switch {
	case applyUnknown(err) || len(ping.MixedProfiles) > 0 && core.ErrorCode(err) == core.CodeUsage:
		// Mixed profiles: which agent's files to check is the caller's
		// to say (`apply --agent`); the rest of the status still holds.
		// The status is still worth having; say why apply's part is missing.
		body := core.NewErrorBody(err, s.Sys.ErrorMessage(err))
		doc.Apply.Error = &body
	case err != nil:
		return StatusDoc{}, err
	default:
		for _, r := range apply.Status(full.Targets) {
			r.Diff = "" // the state is the status; `charter apply --dry-run` shows the diff
			doc.Apply.Targets = append(doc.Apply.Targets, r)
		}
		if full.Content != nil {
			doc.Apply.Files = full.Content.Entries
		}
		doc.Apply.Budget = full.Budget
	}
	return doc, nil
}

// applyUnknown reports whether err is a reason charter cannot tell the
// state of the agent files, as opposed to a failure: it decides by code,
// never by the error's type.
func applyUnknown(err error) bool {
	code := core.ErrorCode(err) // internal for nil
	return code == core.CodeNoAgent || code == core.CodeMalformedMarkers
}
