package commands

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/doctor"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/session"
	"github.com/agentkit/charter/helpers/words"
)

// DoctorCmd checks everything a user can get wrong and says how to fix it.
type DoctorCmd struct{}

func (c *DoctorCmd) Run(ctx context.Context, a *App) error {
	// The same layers as every other command: the project (--project-dir,
	// CHARTER_PROJECT_DIR, --no-project) and the policy.
	rep, err := a.session().Doctor(ctx, session.DoctorOptions{})
	if err != nil {
		return err
	}
	colour := a.colorFor(a.Stdout)
	if err := a.emit(rep, func(w io.Writer) { printDoctor(w, rep, colour) }); err != nil {
		return err
	}
	if n := rep.Failed(); n > 0 {
		// The report is the output; the error only sets the exit status.
		return reported(errcode.Errorf(core.CodeCheckFailed, "%d of %d checks failed: each says how to fix it", n, len(rep.Checks)))
	}
	return nil
}

var statusColours = lazy.Value[map[string]string]{Make: func() map[string]string {
	return map[string]string{doctor.OK: "\x1b[32m", doctor.Warn: "\x1b[33m", doctor.Fail: "\x1b[1;31m"}
}}

// printDoctor prints one line per check: status, label, message, and
// below it the fix when there is one. Lines of a long message line up.
func printDoctor(w io.Writer, rep doctor.Report, colour bool) {
	width := 0
	for _, c := range rep.Checks {
		width = max(width, len(c.Label))
	}
	indent := strings.Repeat(" ", 6+width+2)
	warnings := 0
	for _, c := range rep.Checks {
		status := fmt.Sprintf("%-4s", c.Status)
		if colour {
			status = statusColours.Get()[c.Status] + status + "\x1b[0m"
		}
		// Messages name files and quote what is in them: each line inert.
		lines := strings.Split(c.Message, "\n")
		fmt.Fprintf(w, "%s  %-*s  %s\n", status, width, c.Label, inert.Line(lines[0]))
		for _, l := range lines[1:] {
			fmt.Fprintf(w, "%s%s\n", indent, inert.Line(strings.TrimSpace(l)))
		}
		if c.Fix != "" {
			fmt.Fprintf(w, "%sfix: %s\n", indent, inert.Line(c.Fix))
		}
		if c.Status == doctor.Warn {
			warnings++
		}
	}
	fails := rep.Failed()
	switch {
	case fails == 0 && warnings == 0:
		fmt.Fprintln(w, "\nNo problems found.")
	case fails == 0:
		fmt.Fprintf(w, "\n%s, nothing failed.\n", words.Plural(warnings, "warning"))
	default:
		fmt.Fprintf(w, "\n%s failed, %s.\n", words.Plural(fails, "check"), words.Plural(warnings, "warning"))
	}
}
