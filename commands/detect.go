package commands

import (
	"context"
	"fmt"
	"io"

	"github.com/agentkit/charter/core/inert"
)

// DetectCmd reports whether the companion is installed.
type DetectCmd struct{}

// Help lists the fields of --json, which scripts and hosts read.
func (c *DetectCmd) Help() string {
	return `With --json, one document: installed (true or false), version (the companion's version, null when it is not installed or does not say), installCommand (how to install it), repo (its repository) and dismissed (whether its recommendation was dismissed, charter dismiss agent-switch).`
}

func (c *DetectCmd) Run(ctx context.Context, a *App) error {
	d, err := a.session().Detect(ctx)
	if err != nil {
		return err
	}
	if a.JSON {
		if _, err := a.Stdout.Write(detectJSON(d)); err != nil {
			return fmt.Errorf("write output: %w", err)
		}
		return nil
	}
	return a.emit(d, func(w io.Writer) {
		switch {
		case d.Installed && d.Version != nil:
			fmt.Fprintf(w, "agent-switch %s is installed.\n", inert.Line(*d.Version)) // as its files say
		case d.Installed:
			fmt.Fprintln(w, "agent-switch is installed (version unknown).")
		default:
			fmt.Fprintln(w, "agent-switch is not installed.")
			fmt.Fprintf(w, "  install:    %s\n", *d.InstallCommand)
		}
		fmt.Fprintf(w, "  repository: %s\n", d.Repo)
		if d.Dismissed {
			fmt.Fprintln(w, "  The recommendation is dismissed.")
		}
	})
}
