package core

import "github.com/agentkit/charter/core/fsys"

// guard is what the file layer asks a System about a write: the companion
// tree, the shared sources, the run's config root, and how to explain a
// refusal.
type guard struct{ s *System }

func (g guard) Home() string {
	home, err := g.s.CompanionHome()
	if err != nil {
		return "" // without a home there is no companion tree to protect
	}
	return home
}

func (g guard) Blocked(target, link string) error {
	return &SharedWriteError{Target: target, SharedPath: link}
}

func (g guard) Sources() func(target string, t *fsys.Target) error {
	srcs := g.s.shareSources()
	return func(target string, t *fsys.Target) error { return sourceErrorIn(srcs, target, t) }
}

func (g guard) ConfigRoot() string {
	root, err := g.s.ResolveRoot(g.s.rootFlag)
	if err != nil {
		return ""
	}
	return root.Path
}

func (g guard) NotWritable(target string, err error) error { return g.s.notWritable(target, err) }

// WithConfigRoot is s for a run given --config-root flag (nil: none), so
// that its lock files live under the run's own root: a host that chose a
// root finds nothing of charter's outside it. s itself is unchanged.
func (s *System) WithConfigRoot(flag *string) *System {
	c := s.derive()
	c.rootFlag = flag
	return c
}

// Serving is s for a run that serves the one agent named (its Stop hook,
// `apply --agent A`): that agent's variable chooses the profile before the
// others (SPEC §5), so a Codex session started inside a Claude profile,
// which inherits CLAUDE_CONFIG_DIR, works in its own Codex profile. Use it
// before the scope is resolved; an unknown name changes nothing. s itself
// is unchanged.
func (s *System) Serving(agent string) *System {
	c := s.derive()
	c.serves = agent
	return c
}

// derive is a copy of s whose guard asks the copy; it shares s's locks.
func (s *System) derive() *System {
	c := *s
	c.Files = s.Files.Derive(s.Fs, guard{&c})
	return &c
}

// ReadOnly is s with a file system that refuses every write
// (fsys.ReadOnlyFs): what MCP and a dry run work on. why names that run in
// the error a write gets.
func (s *System) ReadOnly(why string) *System {
	ro := *s
	ro.Files = s.Files.Derive(fsys.NewReadOnlyFs(s.Fs, why), guard{&ro})
	return &ro
}
