package commands

import (
	"fmt"
	"io"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/inert"
)

// TrustCmd records that the user trusts the project's commands (SPEC §13).
type TrustCmd struct {
	Revoke        bool `name:"revoke" xor:"trust" help:"Stop trusting the project: its commands do not run until you trust it again."`
	List          bool `name:"list" xor:"trust" help:"List the trusted projects."`
	ConfirmShared bool `name:"confirm-shared" help:"Write even if the trust file lies behind a link agent-switch shares between profiles."`
}

// trustListDoc is `charter trust --list --json`.
type trustListDoc struct {
	Projects []core.TrustEntry `json:"projects"`
}

// revokeDoc is `charter trust --revoke --json`.
type revokeDoc struct {
	Root    string `json:"root"`
	Revoked bool   `json:"revoked"` // false: it was not trusted
}

func (c *TrustCmd) Run(a *App) error {
	if c.List {
		es, err := a.Sys.TrustEntries()
		if err != nil {
			return err
		}
		if bad := a.Sys.TrustFileProblem(); bad != nil {
			return bad // "no project is trusted" would hide why
		}
		return a.emit(trustListDoc{Projects: es}, func(w io.Writer) {
			if len(es) == 0 {
				fmt.Fprintln(w, "No project is trusted.")
			}
			for _, e := range es {
				owner := ""
				if e.Owner != nil {
					owner = fmt.Sprintf(" (owned by uid %d)", *e.Owner)
				}
				fmt.Fprintf(w, "%s%s  trusted %s\n", inert.Line(e.Root), owner, e.Trusted.Local().Format(time.DateTime))
			}
		})
	}
	if a.noProject {
		return core.Errorf(core.CodeUsage, "--no-project leaves no project to trust: leave it out, or give --project-dir DIR")
	}
	p, err := a.session().ProjectToTrust()
	if err != nil {
		return err
	}
	if p == nil {
		return core.Errorf(core.CodeUsage, "no project here: run inside a project (a directory with .charter/settings.yaml) or give --project-dir DIR")
	}
	if c.Revoke {
		var found bool
		err := a.guarded(c.ConfirmShared, func(confirm bool) (err error) {
			found, err = a.Sys.RevokeTrust(p.Dir, confirm)
			return err
		})
		if err != nil {
			return err
		}
		return a.emit(revokeDoc{Root: p.Dir, Revoked: found}, func(w io.Writer) {
			if found {
				fmt.Fprintf(w, "%s is no longer trusted: its own commands will not run until you trust it again.\n", inert.Line(p.Dir))
			} else {
				fmt.Fprintf(w, "%s was not trusted.\n", inert.Line(p.Dir))
			}
		})
	}
	return c.trust(a, p)
}

// trust shows what the project's settings would run, then records it.
func (c *TrustCmd) trust(a *App, p *core.Project) error {
	st, err := a.session().StoreFor(p)
	if err != nil {
		return err
	}
	snap, err := st.Read()
	if err != nil {
		return err
	}
	shown, err := gates.TrustOf(a.Sys, snap)
	if err != nil {
		return err
	}
	if !a.JSON {
		printTrust(a.Stdout, p, shown)
	}
	var t gates.Trust
	err = a.guarded(c.ConfirmShared, func(confirm bool) (err error) {
		t, err = gates.TrustProject(a.Sys, snap, shown.SHA256, p.Owner, confirm)
		return err
	})
	if err != nil {
		return err
	}
	return a.emit(t, func(w io.Writer) {
		if len(t.Values) > 0 {
			fmt.Fprintln(w, "Trusted. A change to any of these values (a pull, a branch switch) makes the project untrusted again.")
		} else {
			fmt.Fprintln(w, "Recorded.")
		}
	})
}

// printTrust lists the values a trust covers, each with the file that
// sets it. A value is shown inert: it must not fake lines of the listing
// the user trusts, nor read (bidi) as another command than the one run.
func printTrust(w io.Writer, p *core.Project, t gates.Trust) {
	dir := inert.Line(p.Dir)
	if p.Owner != nil {
		fmt.Fprintf(w, "The project %s is owned by uid %d; trusting it accepts that owner.\n", dir, *p.Owner)
	}
	if len(t.Values) == 0 {
		fmt.Fprintf(w, "The project %s sets no command charter runs and no gate setting that needs trust.\n", dir)
		return
	}
	fmt.Fprintf(w, "The project %s sets these values, which charter runs or obeys once you trust them:\n", dir)
	for _, v := range t.Values {
		fmt.Fprintf(w, "  %s = %s\n      (%s)\n", inert.Line(v.Key), inert.Line(v.Value), inert.Line(v.Path))
	}
}
