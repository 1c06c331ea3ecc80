package commands

import (
	"context"
	"fmt"
	"io"

	"github.com/agentkit/charter/core/dismiss"
)

// DismissCmd hides a recommendation for good.
type DismissCmd struct {
	ID            string `arg:"" optional:"" default:"agent-switch" help:"Recommendation to dismiss (only agent-switch exists)." complete:"recommendation"`
	Undo          bool   `name:"undo" help:"Show the recommendation again: remove it from the dismissed ones."`
	ConfirmShared bool   `name:"confirm-shared" help:"Write even if the file lies behind a link agent-switch shares between profiles."`
}

func (c *DismissCmd) Run(ctx context.Context, a *App) error {
	var doc dismiss.Doc
	err := a.guarded(c.ConfirmShared, func(confirm bool) (err error) {
		doc, err = a.session().Dismiss(ctx, c.ID, c.Undo, confirm)
		return err
	})
	if err != nil {
		return err
	}
	if c.Undo {
		return a.emit(doc, func(w io.Writer) {
			fmt.Fprintf(w, "Undismissed %q: the wizard recommends it again where it applies.\n", c.ID)
		})
	}
	return a.emit(doc, func(w io.Writer) {
		fmt.Fprintf(w, "Dismissed %q: the wizard will not recommend it again.\n", c.ID)
	})
}
