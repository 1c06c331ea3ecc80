package commands

import (
	"context"
	"fmt"
	"io"

	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/profile"
)

// ProfilesCmd lists the companion's profiles with charter's settings for
// each, and moves settings from one profile to another after a rename.
type ProfilesCmd struct {
	List ProfilesListCmd `cmd:"" default:"1" help:"List agent-switch's profiles and whether charter holds settings for each (also settings of profiles agent-switch no longer has)."`
	Move ProfilesMoveCmd `cmd:"" help:"Move charter's settings of one profile to another, e.g. after agent-switch rename (never over existing settings)."`
}

// ProfilesListCmd is `charter profiles` and `charter profiles list`.
type ProfilesListCmd struct{}

// ProfilesDoc is the answer of `charter profiles --json`.
type ProfilesDoc struct {
	Profiles []profile.Scope `json:"profiles"`
}

func (c *ProfilesListCmd) Run(ctx context.Context, a *App) error {
	ps, err := a.session().Profiles(ctx)
	if err != nil {
		return err
	}
	return a.emit(ProfilesDoc{Profiles: ps}, func(w io.Writer) {
		if len(ps) == 0 {
			fmt.Fprintln(w, "no agent-switch profiles, and no settings of any")
			return
		}
		// Profile names are folder names of agent-switch's tree.
		width := 0
		for _, p := range ps {
			width = max(width, len(inert.Line(p.Name())))
		}
		for _, p := range ps {
			name := inert.Line(p.Name())
			what := "defaults (no settings of its own)"
			switch {
			case p.Settings && p.InCompanion:
				what = "settings " + inert.Line(p.Path)
			case p.Settings:
				what = fmt.Sprintf("settings %s, but agent-switch has no such profile: `charter profiles move %s PROVIDER/NEW` carries them to a renamed one", inert.Line(p.Path), name)
			}
			fmt.Fprintf(w, "%-*s  %s\n", width, name, what)
		}
	})
}

// ProfilesMoveCmd is `charter profiles move FROM TO`.
type ProfilesMoveCmd struct {
	From string `arg:"" name:"from" help:"The profile whose settings move: PROVIDER/PROFILE (a bare PROFILE is claude's)."`
	To   string `arg:"" name:"to" help:"The profile that gets them; it must have no settings of its own."`
}

// ProfilesMoveDoc is the answer of `charter profiles move --json`.
type ProfilesMoveDoc struct {
	OK   bool          `json:"ok"`
	From profile.Scope `json:"from"`
	To   profile.Scope `json:"to"`
}

func (c *ProfilesMoveCmd) Run(ctx context.Context, a *App) error {
	from, to, err := a.session().MoveProfile(ctx, c.From, c.To)
	if err != nil {
		return err
	}
	return a.emit(ProfilesMoveDoc{OK: true, From: from, To: to}, func(w io.Writer) {
		fmt.Fprintf(w, "Moved the settings of %s to %s (%s).\n", inert.Line(from.Name()), inert.Line(to.Name()), inert.Line(to.Path))
		if !to.InCompanion {
			fmt.Fprintf(w, "Note: agent-switch has no profile %s yet; charter uses these settings once it does.\n", inert.Line(to.Name()))
		}
	})
}
