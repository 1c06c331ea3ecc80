// Package session is what one CLI run, one HTTP server or one MCP request
// works on: the scope, the project and the policy, resolved once and
// lazily, with the operations every skin shares as methods (the effective
// settings, a write at a layer, planning and running apply). A skin parses
// its input, calls one method and renders the result, so the command line,
// the hub and MCP can never disagree on what a request sees.
package session

import (
	"context"
	"fmt"
	"sync"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/project"
	"github.com/agentkit/charter/core/settings"
)

// Options say how a session finds its scope and its project.
type Options struct {
	// Scope is the scope when it is known already (a server's, an MCP
	// connection's); nil: resolved from RootFlag on first use.
	Scope *core.Scope
	// RootFlag is --config-root (nil: not given). CheckRoot vets a root a
	// host chose before it is used; nil: none.
	RootFlag  *string
	CheckRoot func(core.ConfigRoot) error

	// ProjectDir is --project-dir (nil: not given), NoProject --no-project.
	// Without either, CHARTER_PROJECT_DIR, then discovery from From (""
	// for the working directory).
	ProjectDir *string
	NoProject  bool
	From       string
	// Served is a server's project rule: Project was found when it
	// started (nil: none) and is not looked for again; ProjectRoot is
	// where a first project file goes ("" outside a repository), and its
	// layers are read before that file exists.
	Served      bool
	Project     *core.Project
	ProjectRoot string

	// Version is this charter's, for the ping and doctor documents; it
	// is asked only by them (the CLI reads it from the binary's build
	// information, which no other command needs). nil: "".
	Version func() string

	// Warn reports what went wrong after a write succeeded; nil: dropped.
	Warn func(msg string)
	// FetchSources lets reads fetch a shared source's pinned commit that
	// the cache lacks (the command line); the hub and MCP never fetch on
	// their own (SPEC §15).
	FetchSources bool
	// LoadLibrary reads the layers Library lists (nil:
	// content.LoadLayerNames); a server passes one that keeps what it read.
	LoadLibrary func(ctx context.Context, sys *core.System, layers []content.Layer) (*content.Library, error)
	// Lists keeps each kind's ContentList across the sessions of a
	// server while LoadLibrary hands out the same library (nil: none).
	Lists *KeptLists
	// Hub reaches the scope's running server (ping --server, doctor's
	// server line); nil: none is looked for.
	Hub Hub
}

// Session is one resolution. Its methods are safe for concurrent use.
type Session struct {
	Sys  *core.System
	opts Options

	scope, checked cached[core.Scope]
	project        cached[*core.Project]
	mu             sync.Mutex
	created        *core.Project       // the project a write created, once it has
	receivers      map[string][]string // by level, kind and agents: one list per shape, not per item
}

// cached is a value computed on first use, or the error that stopped it.
type cached[T any] struct {
	once sync.Once
	v    T
	err  error
}

func (l *cached[T]) get(f func() (T, error)) (T, error) {
	l.once.Do(func() { l.v, l.err = f() })
	return l.v, l.err
}

// version is this charter's version, as opts gives it.
func (s *Session) version() string {
	if s.opts.Version == nil {
		return ""
	}
	return s.opts.Version()
}

// New returns the session of sys under opts; nothing is resolved yet.
func New(sys *core.System, opts Options) *Session {
	return &Session{Sys: sys, opts: opts}
}

// Scope is where this session keeps its files, a root a host chose vetted
// by CheckRoot.
func (s *Session) Scope() (core.Scope, error) {
	return s.checked.get(func() (core.Scope, error) {
		sc, err := s.ResolvedScope()
		if err != nil || s.opts.CheckRoot == nil || sc.Root.Source == core.SourceDefault {
			return sc, err
		}
		return sc, s.opts.CheckRoot(sc.Root)
	})
}

// ResolvedScope is Scope without CheckRoot: doctor reports the root itself.
func (s *Session) ResolvedScope() (core.Scope, error) {
	return s.scope.get(func() (core.Scope, error) {
		if s.opts.Scope != nil {
			return *s.opts.Scope, nil
		}
		return profile.ResolveScope(s.Sys, s.opts.RootFlag)
	})
}

// OtherProfileScope is, when --config-root chose sc while a profile is
// active, the profile's scope and settings file that runs without the
// flag use; ok is false when there is no such other scope.
func (s *Session) OtherProfileScope(sc core.Scope) (other core.Scope, file string, ok bool) {
	if sc.Root.Source != core.SourceFlag {
		return core.Scope{}, "", false
	}
	other, err := profile.ResolveScope(s.Sys, nil)
	if err != nil || other.Kind != core.ScopeProfile || other.Path == sc.Path {
		return core.Scope{}, "", false
	}
	return other, s.SettingsFile(other), true
}

// Project is the project whose settings apply: nil when there is none or
// --no-project was given. A server's is the one found when it started.
func (s *Session) Project() (*core.Project, error) {
	if s.opts.Served {
		return s.opts.Project, nil
	}
	s.mu.Lock()
	created := s.created
	s.mu.Unlock()
	if created != nil {
		return created, nil
	}
	return s.project.get(func() (*core.Project, error) {
		return project.FindFrom(s.Sys, s.opts.ProjectDir, s.opts.NoProject, s.opts.From)
	})
}

// IgnoredProjects lists the projects another user owns that Project
// passes over or refuses, for doctor.
func (s *Session) IgnoredProjects() ([]project.Foreign, error) {
	return project.Ignored(s.Sys, s.opts.ProjectDir, s.opts.NoProject)
}

// layersProject is the project whose layers the settings read: Project,
// or a server's repository root before its first project file exists.
func (s *Session) layersProject() (*core.Project, error) {
	p, err := s.Project()
	if err != nil || p != nil || !s.opts.Served || s.opts.ProjectRoot == "" {
		return p, err
	}
	return project.At(s.Sys, s.opts.ProjectRoot, core.SourceRepository)
}

// Policy reads the policy file, on every call: an administrator's change
// applies at once. nil and no error when there is none.
func (s *Session) Policy() (*settings.Policy, error) {
	return s.policyWithItems(settings.LoadPolicy(s.Sys))
}

// policyWithItems is the policy LoadPolicy read with its sources' items,
// which are the policy's too.
func (s *Session) policyWithItems(pol *settings.Policy, err error) (*settings.Policy, error) {
	if err != nil || pol == nil {
		return pol, err
	}
	return s.withPolicyItems(pol)
}

// Store is the layered store: scope, project and policy. A malformed
// policy fails here, so every operation that reads settings fails with it.
func (s *Session) Store() (*settings.Store, error) { return s.storeWith(s.Policy) }

// storeWith is Store with the policy as policy reads it.
func (s *Session) storeWith(policy func() (*settings.Policy, error)) (*settings.Store, error) {
	sc, err := s.Scope()
	if err != nil {
		return nil, err
	}
	project, err := s.layersProject()
	if err != nil {
		return nil, err
	}
	pol, err := policy()
	if err != nil {
		return nil, err
	}
	return settings.Open(s.Sys, sc, project, pol), nil
}

// Read returns the effective settings with their store. The files are
// read on every call.
func (s *Session) Read() (*settings.Store, *settings.Snapshot, error) {
	st, err := s.Store()
	if err != nil {
		return nil, nil, err
	}
	snap, err := st.Read()
	return st, snap, err
}

// ProjectToTrust is the project `charter trust` asks about: the one
// Project would find, another user's included.
func (s *Session) ProjectToTrust() (*core.Project, error) {
	return project.ToTrust(s.Sys, s.opts.ProjectDir)
}

// StoreFor is Store with project p in place of the session's: `charter
// trust` reads the project it is asked to trust.
func (s *Session) StoreFor(p *core.Project) (*settings.Store, error) {
	sc, err := s.Scope()
	if err != nil {
		return nil, err
	}
	policy, err := s.Policy()
	if err != nil {
		return nil, err
	}
	return settings.Open(s.Sys, sc, p, policy), nil
}

// UserStore is the store of the user-level files apply writes: the
// settings without the project's layers, which serve every project. The
// project is still resolved, so that a bad one fails as for every read.
func (s *Session) UserStore() (*settings.Store, error) {
	st, err := s.Store()
	if err != nil {
		return nil, err
	}
	sc, _ := s.Scope()
	return settings.Open(s.Sys, sc, nil, st.Policy()), nil
}

func (s *Session) warn(msg string) {
	if s.opts.Warn != nil {
		s.opts.Warn(msg)
	}
}

// GateDir is where the gates run: the root of the project whose settings
// apply, else the directory the project was looked for from (an MCP
// client's), else the working directory. A server's repository root is
// that project only once a file exists there, as discovery would then
// find it.
func (s *Session) GateDir() (string, error) {
	p, err := s.layersProject()
	if err != nil {
		return "", err
	}
	if p != nil && (!s.opts.Served || s.opts.Project != nil || len(p.Files) > 0) {
		return p.Dir, nil
	}
	if s.opts.From != "" {
		return s.opts.From, nil
	}
	wd, err := s.Sys.Getwd()
	if err != nil {
		return "", fmt.Errorf("find the working directory to run the gates in: %w", err)
	}
	return wd, nil
}
