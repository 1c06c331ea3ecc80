package commands

import (
	"fmt"
	"io"

	"github.com/agentkit/charter/core"
)

// DismissCmd hides a recommendation for good.
type DismissCmd struct {
	ID            string `arg:"" optional:"" default:"agent-switch" help:"Recommendation to dismiss (only agent-switch exists)." complete:"recommendation"`
	ConfirmShared bool   `name:"confirm-shared" help:"Write even if the file lies behind a link agent-switch shares between profiles."`
}

func (c *DismissCmd) Run(a *App) error {
	var ids []string
	err := a.guarded(c.ConfirmShared, func(confirm bool) (err error) {
		ids, err = a.Sys.Dismiss(c.ID, confirm)
		return err
	})
	if err != nil {
		return err
	}
	return a.emit(core.DismissDoc{OK: true, Dismissed: ids}, func(w io.Writer) {
		fmt.Fprintf(w, "Dismissed %q: the wizard will not recommend it again.\n", c.ID)
	})
}
