// Package doctor checks everything a user can get wrong about charter's
// setup and says how to fix each: `charter doctor` prints its report, and
// the HTTP API or the MCP server can serve the same one.
//
// The report is built by checks, a list of small functions run in order,
// each looking at one thing and returning its lines. A layer that brings
// something new to get wrong (the project and policy files, the quality
// gates' commands, the Claude hook entry) adds one function to that list
// and nothing else. Checks only read: none of them writes a file, except
// the probe of whether a directory is writable, which removes what it made.
package doctor

import (
	"context"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/project"
	"github.com/agentkit/charter/core/settings"
)

// The status of a check.
const (
	OK   = "ok"
	Warn = "warn" // worth fixing; charter still works
	Fail = "fail" // something charter needs is broken
)

// Check is one line of the report.
type Check struct {
	Name    string `json:"name"` // stable, for scripts: "config-root", "agent-file:claude"
	Label   string `json:"-"`    // for people: "Config root"
	Status  string `json:"status"`
	Message string `json:"message"`
	Fix     string `json:"fix"` // what to do; "" when the check is ok
}

// Report is every check, in order; OK is false when one failed.
type Report struct {
	OK     bool    `json:"ok"`
	Checks []Check `json:"checks"`
}

// Failed counts the failed checks.
func (r Report) Failed() int {
	n := 0
	for _, c := range r.Checks {
		if c.Status == Fail {
			n++
		}
	}
	return n
}

// Env is what the checks look at.
type Env struct {
	Sys *core.System
	// Session is the resolution the other commands work on: the scope
	// (--config-root), the project (--project-dir, CHARTER_PROJECT_DIR,
	// discovery, --no-project), the policy and apply's plans. core/session
	// hands it in (Session.Doctor): doctor stays below the handler layer.
	Session Session
	Version string // of this charter
	// Server probes the server of a scope (the HTTP skin's, through
	// core/session); nil: no server line.
	Server func(*core.System, core.Scope) ServerState
}

// ServerState is what a probe found out about a scope's server.
type ServerState struct {
	Discovery string // the discovery file's path
	Running   bool
	URL       string
	PID       int
	// Stale says why a discovery file that exists does not count; "" when
	// there is none or its server runs.
	Stale string
}

// Session is what the checks ask of the session, declared here where it
// is used so that core/session can run doctor without a cycle.
type Session interface {
	ResolvedScope() (core.Scope, error)
	Project() (*core.Project, error)
	Policy() (*settings.Policy, error)
	// Plan is apply's plan of snap, of the project's files when project.
	Plan(ctx context.Context, snap *settings.Snapshot, project bool) (*apply.Full, error)
	GateDir() (string, error)
	// PeerLeft is what ruler or rulesync left in the project.
	PeerLeft(ctx context.Context, tool string) (PeerLeft, error)
	// Sources lists the declared shared sources of scope sc's settings.
	Sources(ctx context.Context, sc *core.Scope) ([]Source, error)
	// IgnoredProjects lists the projects another user owns that the
	// project search passes over.
	IgnoredProjects() ([]project.Foreign, error)
}

// PeerLeft is what is left of a peer tool beside charter: the files
// retiring it would change, and what would stay and why.
type PeerLeft struct {
	Changes []PeerFile
	Kept    []string
}

// PeerFile is one file of a peer tool and what of it is the peer's.
type PeerFile struct{ Path, What string }

// Empty reports whether no file of the peer is left.
func (l PeerLeft) Empty() bool { return len(l.Changes) == 0 }

// Source is one declared shared source with its pin (SPEC §15).
type Source struct {
	Name, URL string
	Layer     string // settings.LayerScope, LayerProject or LayerPolicy
	Settings  string // the file that declares it
	Lock      string // the sources.lock that pins it
	Commit    string // "": not pinned
	Cached    bool   // the pinned tree is in the cache
	Latest    string // the ref's commit at the last fetch
	Update    bool   // Latest differs from Commit
}

// run is one doctor run: the environment, and what several checks need,
// resolved once.
type run struct {
	Env
	ctx      context.Context
	scope    core.Scope
	scopeErr error // the scope could not be resolved: checks that need it say so
	// store reads every layer, as `charter settings` does: scope, project
	// and policy (a policy that cannot be read is left out, and has its
	// own line).
	store      *settings.Store
	project    *core.Project
	projectErr error
	policy     *settings.Policy
	policyErr  error

	planned    bool // plan ran; full and planErr hold its result
	full       *apply.Full
	planErr    error
	unreadable bool // the plan failed because the settings or the policy cannot be read

	projectPlanned bool // projectFiles made apply --project's plan
	projectFull    *apply.Full
	projectPlanErr error
}

// check is one entry of the list: it returns the lines it has to add.
type check func(r *run) []Check

// checks is the list, in the order of the report.
var checks = []check{
	companionCheck,
	profileCheck,
	companionActive,
	profileScopes,
	configRoot,
	scopeDir,
	projectDir,
	projectTrust,
	gateCommands,
	settingsFiles,
	policyFile,
	unknownKeys,
	contentSources,
	sharedSources,
	sharedLinks,
	server,
	agentFiles,
	projectFiles,
	peerTools,
	policyDenies,
	codexSandbox,
	mcpAllowed,
	hookPrograms,
	agentGates,
}

// Run runs every check. A cancelled ctx stops it between checks (and a
// plan between files) with ctx's error and no report.
func Run(ctx context.Context, env Env) (Report, error) {
	r := &run{Env: env, ctx: ctx}
	// Each part on its own, so that one that fails is reported and the
	// checks that do not need it still run.
	r.scope, r.scopeErr = env.Session.ResolvedScope()
	r.project, r.projectErr = env.Session.Project()
	r.policy, r.policyErr = env.Session.Policy()
	if r.scopeErr == nil {
		r.store = settings.Open(env.Sys, r.scope, r.project, r.policy)
	}
	rep := Report{Checks: []Check{}}
	for _, c := range checks {
		if ctx.Err() != nil {
			return Report{}, apply.Stopped(ctx)
		}
		rep.Checks = append(rep.Checks, c(r)...)
	}
	rep.OK = rep.Failed() == 0
	return rep, nil
}

func ok(name, label, msg string) Check {
	return Check{Name: name, Label: label, Status: OK, Message: msg}
}

func warn(name, label, msg, fix string) Check {
	return Check{Name: name, Label: label, Status: Warn, Message: msg, Fix: fix}
}

func fail(name, label, msg, fix string) Check {
	return Check{Name: name, Label: label, Status: Fail, Message: msg, Fix: fix}
}

// needScope is the line of a check that cannot run without a scope.
func (r *run) needScope(name, label string) []Check {
	return []Check{warn(name, label, "not checked: the config root could not be resolved", "fix the config root first (see above)")}
}

// readFile reads a settings file for its check; a project's own files only
// inside the project (a link out of it is reported, not read).
func readFile(r *run, path string) ([]byte, error) {
	within := ""
	if p := r.project; p != nil && (path == p.SettingsPath() || path == p.LocalPath()) {
		within = p.Dir
	}
	f, err := r.Sys.OpenWithin(within, path, fsys.KindSettings)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return fsys.ReadAll(f, path, fsys.KindSettings)
}
