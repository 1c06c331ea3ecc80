package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/session"
)

// ApplyCmd renders this scope's settings into each agent's instruction file.
type ApplyCmd struct {
	Agent         []string `name:"agent" sep:"," placeholder:"AGENT" help:"Agents to write for, by name (charter agents lists them) or all (default: the active profile's agent, else every agent whose directory exists; with --project: CLAUDE.md, AGENTS.md and every agent file already in the project)." complete:"agent"`
	Project       bool     `name:"project" help:"Write the project's instruction files (and charter's entry in its .mcp.json) from the project's effective settings, instead of the user-level ones."`
	DryRun        bool     `name:"dry-run" help:"Print a unified diff of what would change; write nothing."`
	Check         bool     `name:"check" help:"Write nothing; exit 5 when an agent file is out of date (for hooks and CI)."`
	ConfirmShared bool     `name:"confirm-shared" help:"Write even through a link agent-switch shares between profiles."`
	Force         bool     `name:"force" help:"Take over projected files that exist but charter did not write, or that were edited by hand."`
}

func (c *ApplyCmd) Run(ctx context.Context, a *App) error {
	if c.Project && a.noProject {
		return errcode.Errorf(core.CodeUsage, "apply --project and --no-project contradict each other: give one of them")
	}
	if len(c.Agent) == 1 {
		a.serving(c.Agent[0]) // one agent: its own variable chooses the profile
	}
	if c.DryRun || c.Check {
		a.readOnly("apply --dry-run or --check")
	}
	if a.Sys.Getenv("GOGC") == "" {
		defer tuneGC()()
	}
	if a.Sys.Getenv("GOMEMLIMIT") == "" {
		// A library near its caps (hundreds of MB live) would peak at
		// twice its size: past 256 MiB the collector runs as often as it
		// must.
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
	}
	req := session.ApplyRequest{Agents: c.Agent, Project: c.Project, DryRun: c.DryRun || c.Check, Force: c.Force, ConfirmShared: c.ConfirmShared}
	if a.Interactive() {
		req.Confirm = a.promptShared
	}
	req.Planning = a.armSignals
	rep, err := a.session().Apply(ctx, req)
	if errors.Is(err, session.ErrNoProject) {
		return errcode.Errorf(core.CodeUsage, "apply --project: no project here (no .charter/settings.yaml from this directory up): run it inside the project, or name the project with --project-dir DIR")
	}
	if rep == nil {
		return err
	}
	if req.DryRun {
		return c.status(a, rep)
	}
	// A refused shared link: the report says which files are blocked.
	if eerr := a.emit(rep, func(w io.Writer) { printReport(w, rep.FullReport, a.Stderr) }); eerr != nil {
		return eerr
	}
	if err != nil {
		return reported(err)
	}
	return nil
}

// status serves --dry-run and --check: nothing is written.
func (c *ApplyCmd) status(a *App, rep *session.ApplyReport) error {
	err := a.emit(rep, func(w io.Writer) {
		if !c.DryRun {
			printReport(w, rep.FullReport, a.Stderr)
			return
		}
		for _, r := range rep.Targets {
			if r.State == apply.StateSkipped {
				continue
			}
			if r.Diff == "" {
				fmt.Fprintf(a.Stderr, "charter: note: %s is up to date\n", inert.Line(r.Path))
			}
			// The diff shows rules' bodies: escaped first, coloured after.
			diff := inert.Body(r.Diff)
			if a.colorFor(a.Stdout) {
				diff = colorDiff(diff)
			}
			fmt.Fprint(w, diff)
		}
	})
	if err != nil || !c.Check {
		return err
	}
	fix := "charter apply"
	if c.Project {
		fix += " --project"
	}
	if err := rep.Check(fix); err != nil {
		return reported(err)
	}
	return nil
}
