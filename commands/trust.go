package commands

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/session"
)

// TrustCmd records that the user trusts the project's commands (SPEC §13).
type TrustCmd struct {
	Revoke        bool `name:"revoke" xor:"trust" help:"Stop trusting the project: its commands do not run until you trust it again."`
	List          bool `name:"list" xor:"trust" help:"List the trusted projects."`
	Show          bool `name:"show" xor:"trust" help:"Show what the project asks to run and whether you trust it; record nothing."`
	ConfirmShared bool `name:"confirm-shared" help:"Write even if the trust file lies behind a link agent-switch shares between profiles."`
}

func (c *TrustCmd) Run(ctx context.Context, a *App) error {
	s := a.session()
	switch {
	case c.List:
		doc, err := s.TrustedProjects(ctx)
		if err != nil {
			return err
		}
		return a.emit(doc, func(w io.Writer) { printTrusted(w, doc) })
	case c.Show:
		doc, err := s.TrustState(ctx)
		if err != nil {
			return err
		}
		return a.emit(doc, func(w io.Writer) {
			printTrust(w, doc)
			fmt.Fprintf(w, "state: %s\n", inert.Line(doc.State))
		})
	case c.Revoke:
		var doc session.TrustDoc
		err := a.guarded(c.ConfirmShared, func(confirm bool) (err error) {
			doc, err = s.Revoke(ctx, confirm)
			return err
		})
		if err != nil {
			return err
		}
		return a.emit(doc, func(w io.Writer) {
			if *doc.Revoked {
				fmt.Fprintf(w, "%s is no longer trusted: its own commands will not run until you trust it again.\n", inert.Line(doc.Root))
			} else {
				fmt.Fprintf(w, "%s was not trusted.\n", inert.Line(doc.Root))
			}
		})
	}
	// The values recorded are the ones printed: both come from this one call.
	var doc session.TrustDoc
	err := a.guarded(c.ConfirmShared, func(confirm bool) (err error) {
		doc, err = s.Trust(ctx, session.TrustRequest{ConfirmShared: confirm})
		return err
	})
	if err != nil {
		return err
	}
	return a.emit(doc, func(w io.Writer) {
		printTrust(w, doc)
		if len(doc.Values) > 0 {
			fmt.Fprintln(w, "Trusted. A change to any of these values (a pull, a branch switch) makes the project untrusted again.")
		} else {
			fmt.Fprintln(w, "Recorded.")
		}
	})
}

// printTrusted lists the trusted projects.
func printTrusted(w io.Writer, doc session.TrustList) {
	if len(doc.Projects) == 0 {
		fmt.Fprintln(w, "No project is trusted.")
	}
	for _, e := range doc.Projects {
		owner := ""
		if e.Owner != nil {
			owner = fmt.Sprintf(" (owned by uid %d)", *e.Owner)
		}
		fmt.Fprintf(w, "%s%s  trusted %s\n", inert.Line(e.Root), owner, e.Trusted.Local().Format(time.DateTime))
	}
}

// printTrust lists the values a trust covers, each with the file that
// sets it. A value is shown inert: it must not fake lines of the listing
// the user trusts, nor read (bidi) as another command than the one run.
func printTrust(w io.Writer, doc session.TrustDoc) {
	dir := inert.Line(doc.Root)
	if doc.Owner != nil {
		fmt.Fprintf(w, "The project %s is owned by uid %d; trusting it accepts that owner.\n", dir, *doc.Owner)
	}
	if len(doc.Values) == 0 {
		fmt.Fprintf(w, "The project %s sets no command charter runs and no gate setting that needs trust.\n", dir)
		return
	}
	fmt.Fprintf(w, "The project %s sets these values, which charter runs or obeys once you trust them:\n", dir)
	for _, v := range doc.Values {
		fmt.Fprintf(w, "  %s = %s\n      (%s)\n", inert.Line(v.Key), inert.Line(v.Value), inert.Line(v.Path))
	}
}
