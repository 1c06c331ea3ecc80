package commands

import (
	"context"
	"fmt"
	"io"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/inert"
)

// SettingsEditCmd opens a settings file in the user's editor, as
// `kubectl edit` does: on a temporary copy, validated on save, re-opened
// with the problems on top until it is valid or left unchanged, then
// written through the same guarded, atomic path as `settings set`.
type SettingsEditCmd struct {
	Project       bool `name:"project" xor:"layer" help:"Edit the project's file (.charter/settings.yaml)."`
	Local         bool `name:"local" xor:"layer" help:"Edit the project-local file (.charter/settings.local.yaml)."`
	ConfirmShared bool `name:"confirm-shared" help:"Write even through a link agent-switch shares between profiles."`
}

// editDoc is what `settings edit --json` prints.
type editDoc struct {
	Path    string `json:"path"`
	Written bool   `json:"written"`
}

// problemPrefix starts every line charter adds to the top of the copy to
// list the problems of the last round; those lines are removed again
// before the next validation, the user's own comments are not.
const problemPrefix = "# charter: "

func (c *SettingsEditCmd) Run(ctx context.Context, a *App) error {
	t, err := a.session().Target(LayerFlags{Project: c.Project, Local: c.Local}.layer())
	if err != nil {
		return err
	}
	path := t.Path()
	// Ask about a shared link before the editor opens, not after the work.
	confirmed := c.ConfirmShared
	err = a.guarded(c.ConfirmShared, func(confirm bool) error {
		if !confirm {
			link, err := a.Sys.SharedLink(path)
			if err != nil {
				return err
			}
			if link != "" {
				return &core.SharedWriteError{Target: path, SharedPath: link}
			}
		}
		confirmed = confirm
		return nil
	})
	if err != nil {
		return err
	}
	// A project file must stay inside the project: refuse a link out of it
	// before its target is read into the editor.
	within := t.Store().WriteOptions(false).Within
	if err := a.Sys.Confine(within, path); err != nil {
		return err
	}
	orig, err := a.Sys.ReadWithin(within, path, fsys.KindSettings)
	if err != nil {
		return err
	}

	s, err := a.newEditSession(path, orig)
	if err != nil {
		return err
	}
	s.t = t
	body, changed, err := s.loop(ctx, orig)
	if err != nil {
		return s.keep(err)
	}
	if !changed {
		s.discard()
		return a.emit(editDoc{Path: path}, func(w io.Writer) {
			fmt.Fprintln(w, "edit cancelled, nothing written")
		})
	}
	err = t.Replace(orig, body, confirmed)
	if err != nil {
		return s.keep(err)
	}
	s.discard()
	a.noteUnknown()
	return a.emit(editDoc{Path: path, Written: true}, func(w io.Writer) {
		fmt.Fprintf(w, "wrote %s\n", inert.Line(path))
	})
}

// noteUnknown names keys that are no settings, as `settings list` does:
// after an edit they are most likely typos.
func (a *App) noteUnknown() {
	_, snap, err := a.readSettings()
	if err != nil {
		return
	}
	for _, k := range snap.Unknown {
		fmt.Fprintf(a.Stderr, "charter: note: %s is not a charter setting; it is kept as it is\n", inert.Line(k))
	}
}
