package profile

import "github.com/agentkit/charter/core"

// ResolveScope decides where this run keeps its files: the root flag (or
// the environment's root), then the active profile under the default root.
func ResolveScope(s *core.System, flag *string) (core.Scope, error) {
	root, err := ResolveRoot(s, flag)
	if err != nil {
		return core.Scope{}, err
	}
	prof := Active(s)
	sc := core.Scope{Kind: core.ScopeGlobal, Path: root.Path, Root: root, Profile: prof}
	switch {
	case root.Source != core.SourceDefault:
		sc.Kind = core.ScopeHost
	case prof.Active:
		sc.Kind = core.ScopeProfile
		sc.Path = s.Paths.Join(root.Path, "profiles", *prof.Provider, *prof.Profile)
	}
	return sc, nil
}
