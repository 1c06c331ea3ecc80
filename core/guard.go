package core

import "github.com/agentkit/charter/core/fsys"

// Guard builds what the file layer asks a System about each write: the
// companion tree, the shared sources, the run's config root. The System
// takes it in (core/profile.Guard is charter's, which resolves them), and
// builds it again for every copy, so a copy's guard asks the copy.
type Guard func(*System) fsys.Guard

// ConfigRootFlag is this run's --config-root (nil: none), as
// WithConfigRoot set it: the guard keeps lock files under the root it
// resolves to.
func (s *System) ConfigRootFlag() *string { return s.rootFlag }

// Serves is the agent this run serves alone (Serving), "" for none.
func (s *System) Serves() string { return s.serves }

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
	c.Files = s.Files.Derive(s.Fs, s.guard(&c))
	return &c
}

// ReadOnly is s with a file system that refuses every write
// (fsys.ReadOnlyFs): what MCP and a dry run work on. why names that run in
// the error a write gets.
func (s *System) ReadOnly(why string) *System {
	ro := *s
	ro.Files = s.Files.Derive(fsys.NewReadOnlyFs(s.Fs, why), s.guard(&ro))
	return &ro
}
