package session

import (
	"context"
	"fmt"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/companion"
	"github.com/agentkit/charter/core/dismiss"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
)

// The machine's own state, beside any project: the companion, the
// dismissed recommendations and the profiles' settings. ctx is taken for
// the skins' one shape; each of these reads a few small files.

// Detect is whether agent-switch is installed, and whether its
// recommendation was dismissed.
func (s *Session) Detect(ctx context.Context) (companion.Detection, error) {
	if err := ctx.Err(); err != nil {
		return companion.Detection{}, err
	}
	return companion.Detect(s.Sys)
}

// Dismiss dismisses recommendation id, or with undo shows it again; the
// document lists the dismissed ones afterwards. A write behind a link the
// companion shares needs confirmShared.
func (s *Session) Dismiss(ctx context.Context, id string, undo, confirmShared bool) (dismiss.Doc, error) {
	if err := ctx.Err(); err != nil {
		return dismiss.Doc{}, err
	}
	change := dismiss.Dismiss
	if undo {
		change = dismiss.Undismiss
	}
	ids, err := change(s.Sys, id, confirmShared)
	if err != nil {
		return dismiss.Doc{}, err
	}
	return dismiss.Doc{OK: true, Dismissed: ids}, nil
}

// Profiles lists agent-switch's profiles and charter's settings of each
// (never nil: a document lists none as []).
func (s *Session) Profiles(ctx context.Context) ([]profile.Scope, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ps, err := profile.Scopes(s.Sys)
	if err == nil && ps == nil {
		ps = []profile.Scope{}
	}
	return ps, err
}

// MoveProfile moves charter's settings of profile from to profile to,
// never over settings to has; it returns both as they are afterwards.
func (s *Session) MoveProfile(ctx context.Context, from, to string) (profile.Scope, profile.Scope, error) {
	if err := ctx.Err(); err != nil {
		return profile.Scope{}, profile.Scope{}, err
	}
	return profile.Move(s.Sys, from, to)
}

// Environment lists every variable charter reads, the agents' own
// directory variables included.
func (s *Session) Environment() []core.EnvVar { return core.Environment(s.Sys.AgentTable.All()) }

// Registration is what an agent's user-level registration of charter's
// MCP server names: the program, as a user-level hook entry names it (the
// bare word while PATH's charter is this binary), and the scope.
type Registration struct {
	Program string
	Scope   core.Scope
}

// Registration is the registration `charter mcp --print-config` prints.
func (s *Session) Registration(ctx context.Context) (Registration, error) {
	if err := ctx.Err(); err != nil {
		return Registration{}, err
	}
	sc, err := s.Scope()
	if err != nil {
		return Registration{}, err
	}
	exe, err := apply.UserProgram(s.Sys, "the registration")
	if err != nil {
		return Registration{}, fmt.Errorf("find charter's own path for the snippet: %w", err)
	}
	return Registration{Program: exe, Scope: sc}, nil
}

// SettingsFile is the settings file of scope sc: what `serve` names for
// the scope it serves and for the profile's own, when they differ.
func (s *Session) SettingsFile(sc core.Scope) string { return settings.New(s.Sys, sc).Path() }
