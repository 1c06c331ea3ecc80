package mcpserver

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/session"
	"github.com/agentkit/charter/core/settings"
)

// Backend is what the MCP skin asks of charter. Every method only reads.
// dir is the directory the client works in (its first root, else charter's
// working directory); the project is found from it unless one is named.
type Backend interface {
	Settings(ctx context.Context, dir string) (settings.Doc, error)
	Get(ctx context.Context, dir, key string) (session.KeyDoc, error)
	Explain(ctx context.Context, dir, key string) (Explanation, error)
	Governance(ctx context.Context, dir string) (string, error)
	Schema(ctx context.Context) ([]byte, error)
	Ping(ctx context.Context, dir string) (core.PingDoc, error)
	Status(ctx context.Context, dir string) (session.StatusDoc, error)
	Trust(ctx context.Context, dir string) (session.TrustDoc, error)
	RunGates(ctx context.Context, dir string, names []string, progress Progress) (gates.Report, error)
	ContentList(ctx context.Context, dir string, k content.Kind, path string) ([]session.ContentItem, error)
	ContentGet(ctx context.Context, dir string, k content.Kind, name string) (session.ContentBody, error)
}

// Progress reports a running job: done of total steps, and what happens now.
type Progress func(done, total int, msg string)

// Explanation is everything charter knows about one setting.
type Explanation = session.Explanation

// GateRequest is one run of the gates.
type GateRequest struct {
	Settings *settings.Snapshot // the effective settings, gate commands included
	// Config is the gates to run, as gates.Load built it from Settings:
	// an untrusted project's gates are marked and never run.
	Config gates.Config
	// Dir is where the gates run: the root of the project the settings
	// came from (--project-dir, CHARTER_PROJECT_DIR or the one found from
	// the client's directory), else the client's directory.
	Dir   string
	Gates []string // the gates to run; empty means every required gate
}

// GateRunner runs gates as `charter gate run` does and returns its report,
// the document of `charter gate run --json`. It must stop every process it
// started when ctx is cancelled, and report progress as it goes.
type GateRunner func(ctx context.Context, req GateRequest, progress Progress) (gates.Report, error)

// Local is the Backend over this process's own files.
type Local struct {
	Sys     *core.System
	Scope   core.Scope // resolved once, at start: flags and environment do not change
	Version string
	// Gates stands in for the session's gate run in tests of this skin
	// alone; nil: the session runs them (RunGates), as every skin does.
	Gates GateRunner
	// ProjectDir is --project-dir (nil: not given); NoProject is --no-project.
	// Without either, CHARTER_PROJECT_DIR, then discovery from the client's dir.
	ProjectDir *string
	NoProject  bool
	// Watch tells the content library's cache of changes with one read
	// per call; nil: the cache stamps every source file instead.
	Watch *fsys.DirWatch

	gateRun  gates.OneRun // one gates_run at a time, as the HTTP server has
	libsOnce sync.Once
	libs     *content.Cache // the content library, kept while nothing under it changes
}

var _ Backend = (*Local)(nil)

// session is the resolution for the client's directory: the project
// named by --project-dir or CHARTER_PROJECT_DIR, else found from dir, and
// the policy as it is now.
func (l *Local) session(dir string) *session.Session {
	return session.New(l.Sys, session.Options{Scope: &l.Scope, ProjectDir: l.ProjectDir, NoProject: l.NoProject, From: dir, LoadLibrary: l.cache().Load, Version: l.Version})
}

func (l *Local) cache() *content.Cache {
	l.libsOnce.Do(func() {
		if l.libs == nil {
			l.libs = &content.Cache{Watch: l.Watch}
		}
	})
	return l.libs
}

// read returns the effective settings. The files are read on every call:
// an agent asks for its governance live.
func (l *Local) read(dir string) (*settings.Store, *settings.Snapshot, error) {
	return l.session(dir).Read()
}

func (l *Local) Settings(ctx context.Context, dir string) (settings.Doc, error) {
	st, snap, err := l.read(dir)
	if err != nil {
		return settings.Doc{}, err
	}
	return st.Doc(snap), nil
}

func (l *Local) Get(ctx context.Context, dir, key string) (session.KeyDoc, error) {
	return l.session(dir).SettingsGet(ctx, key)
}

func (l *Local) Explain(ctx context.Context, dir, key string) (Explanation, error) {
	return l.session(dir).SettingsExplain(ctx, key)
}

func (l *Local) Governance(ctx context.Context, dir string) (string, error) {
	return l.session(dir).GovernanceText(ctx)
}

func (l *Local) Schema(ctx context.Context) ([]byte, error) {
	return json.MarshalIndent(l.session("").SettingsSchema(), "", "  ")
}

func (l *Local) Ping(ctx context.Context, dir string) (core.PingDoc, error) {
	return l.session(dir).Ping(ctx)
}

func (l *Local) Status(ctx context.Context, dir string) (session.StatusDoc, error) {
	return l.session(dir).Status(ctx)
}

// Trust is the project's trust document; it records nothing.
func (l *Local) Trust(ctx context.Context, dir string) (session.TrustDoc, error) {
	return l.session(dir).TrustState(ctx)
}

func (l *Local) RunGates(ctx context.Context, dir string, names []string, progress Progress) (gates.Report, error) {
	req := session.GateRequest{Gates: names, Progress: progress, Once: &l.gateRun}
	if l.Gates != nil {
		// A test's runner, after the same checks and setup as a real run.
		req.Runner = func(ctx context.Context, in session.GateRunInput) (gates.Report, error) {
			return l.Gates(ctx, GateRequest{Settings: in.Settings, Config: in.Config, Dir: in.Config.Dir, Gates: in.Gates}, progress)
		}
	}
	run, err := l.session(dir).RunGates(ctx, req)
	if err != nil {
		return gates.Report{}, err
	}
	return run.Report, nil
}
