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

// Local is the Backend over this process's own files.
type Local struct {
	Sys     *core.System
	Scope   core.Scope // resolved once, at start: flags and environment do not change
	Version string
	// ProjectDir is --project-dir (nil: not given); NoProject is --no-project.
	// Without either, CHARTER_PROJECT_DIR, then discovery from the client's dir.
	ProjectDir *string
	NoProject  bool
	// Watch tells the content library's cache of changes with one read
	// per call; nil: the cache stamps every source file instead.
	Watch *fsys.DirWatch

	gateRun  gates.OneRun // one gates_run at a time, as the HTTP server has
	libsOnce sync.Once
	libs     *content.Cache    // the content library, kept while nothing under it changes
	lists    session.KeptLists // each kind's last list (ContentList)
}

var _ Backend = (*Local)(nil)

// session is the resolution for the client's directory: the project
// named by --project-dir or CHARTER_PROJECT_DIR, else found from dir, and
// the policy as it is now.
func (l *Local) session(dir string) *session.Session {
	return session.New(l.Sys, session.Options{Scope: &l.Scope, ProjectDir: l.ProjectDir, NoProject: l.NoProject, From: dir, LoadLibrary: l.cache().Load, Lists: &l.lists, Version: func() string { return l.Version }})
}

func (l *Local) cache() *content.Cache {
	l.libsOnce.Do(func() {
		if l.libs == nil {
			l.libs = &content.Cache{Watch: l.Watch}
		}
	})
	return l.libs
}

// Settings is the effective settings, read on every call: an agent asks
// for its governance live.
func (l *Local) Settings(ctx context.Context, dir string) (settings.Doc, error) {
	doc, err := l.session(dir).SettingsList(ctx, "")
	return doc.Doc, err
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
	run, err := l.session(dir).RunGates(ctx, session.GateRequest{Gates: names, Progress: progress, Once: &l.gateRun})
	if err != nil {
		return gates.Report{}, err
	}
	return run.Report, nil
}
