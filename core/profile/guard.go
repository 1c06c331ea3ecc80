package profile

import (
	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// Guard is charter's write guard for s (core.Guard): a write through a
// link into the companion tree, or into a source its share links lead to,
// is refused until confirmed (GUARD.md); lock files live under the run's
// config root.
func Guard(s *core.System) fsys.Guard { return guard{s} }

type guard struct{ s *core.System }

func (g guard) Home() string {
	home, err := CompanionHome(g.s)
	if err != nil {
		return "" // without a home there is no companion tree to protect
	}
	return home
}

func (g guard) Blocked(target, link string) error {
	return &core.SharedWriteError{Target: target, SharedPath: link}
}

func (g guard) Sources() func(target string, t *fsys.Target) error {
	srcs := shareSources(g.s)
	return func(target string, t *fsys.Target) error { return sourceErrorIn(srcs, target, t) }
}

func (g guard) ConfigRoot() string {
	root, err := ResolveRoot(g.s, g.s.ConfigRootFlag())
	if err != nil {
		return ""
	}
	return root.Path
}

func (g guard) NotWritable(target string, err error) error {
	return g.s.NotWritable(target, err, g.ConfigRoot())
}
