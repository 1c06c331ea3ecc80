package commands

import (
	"fmt"
	"io"
)

// DismissCmd hides a recommendation for good.
type DismissCmd struct {
	ID            string `arg:"" optional:"" default:"agent-switch" help:"Recommendation to dismiss (only agent-switch exists)."`
	ConfirmShared bool   `name:"confirm-shared" help:"Write even if the file lies behind a link agent-switch shares between profiles."`
}

// dismissDoc is the same body as POST /api/v1/wizard/dismiss-recommendation.
type dismissDoc struct {
	OK        bool     `json:"ok"`
	Dismissed []string `json:"dismissed"`
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
	return a.emit(dismissDoc{OK: true, Dismissed: ids}, func(w io.Writer) {
		fmt.Fprintf(w, "Dismissed %q: the wizard will not recommend it again.\n", c.ID)
	})
}
