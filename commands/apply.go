package commands

import (
	"errors"
	"fmt"
	"io"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/session"
)

// ApplyCmd renders this scope's settings into each agent's instruction file.
type ApplyCmd struct {
	Agent         []string `name:"agent" sep:"," placeholder:"${agents}" help:"Agents to write for (default: the active profile's agent, else every agent whose directory exists; with --project: CLAUDE.md, AGENTS.md and every agent file already in the project)." complete:"agent"`
	Project       bool     `name:"project" help:"Write the project's instruction files (and charter's entry in its .mcp.json) from the project's effective settings, instead of the user-level ones."`
	DryRun        bool     `name:"dry-run" help:"Print a unified diff of what would change; write nothing."`
	Check         bool     `name:"check" help:"Write nothing; exit 5 when an agent file is out of date (for hooks and CI)."`
	ConfirmShared bool     `name:"confirm-shared" help:"Write even through a link agent-switch shares between profiles."`
}

func (c *ApplyCmd) Run(a *App) error {
	if c.Project && a.noProject {
		return core.Errorf(core.CodeUsage, "apply --project and --no-project contradict each other: give one of them")
	}
	if len(c.Agent) == 1 {
		a.Sys.ServeAgent(c.Agent[0]) // one agent: its own variable chooses the profile
	}
	// Only a status shows a diff.
	req := session.ApplyRequest{Agents: c.Agent, Project: c.Project, RunOnly: !c.DryRun && !c.Check}
	targets, err := a.session().PlanApply(req)
	if errors.Is(err, session.ErrNoProject) {
		return core.Errorf(core.CodeUsage, "apply --project: no project here (no .charter/settings.yaml from this directory up): run it inside the project, or name the project with --project-dir DIR")
	}
	if err != nil {
		return err
	}
	if c.DryRun || c.Check {
		return c.status(a, targets)
	}
	// One target at a time, so that a person at a terminal answers for
	// each shared file, and a blocked one does not stop the others.
	results := make([]apply.Result, len(targets))
	var blocked []error
	for i := range targets {
		err := a.guarded(c.ConfirmShared, func(confirm bool) error {
			rs, err := a.session().RunApply(targets[i:i+1], confirm)
			if len(rs) == 1 {
				results[i] = rs[0]
			}
			return err
		})
		switch core.ErrorCode(err) {
		case core.CodeSharedWrite, core.CodeCancelled:
			blocked = append(blocked, err)
			continue
		}
		if err != nil {
			return err
		}
	}
	if err := a.emit(apply.NewReport(a.Sys, results), func(w io.Writer) { printResults(w, results) }); err != nil {
		return err
	}
	if len(blocked) > 0 {
		return reported(errors.Join(blocked...))
	}
	return nil
}

// status serves --dry-run and --check: nothing is written.
func (c *ApplyCmd) status(a *App, targets []apply.Target) error {
	results := apply.Status(targets)
	err := a.emit(apply.NewReport(a.Sys, results), func(w io.Writer) {
		if !c.DryRun {
			printResults(w, results)
			return
		}
		for _, r := range results {
			if r.Diff == "" {
				fmt.Fprintf(a.Stderr, "charter: note: %s is up to date\n", r.Path)
			}
			if a.colorFor(a.Stdout) {
				fmt.Fprint(w, colorDiff(r.Diff))
			} else {
				fmt.Fprint(w, r.Diff)
			}
		}
	})
	if err != nil || !c.Check {
		return err
	}
	if err := apply.Check(results); err != nil {
		return reported(err)
	}
	return nil
}

func printResults(w io.Writer, results []apply.Result) {
	width := 6 // claude, codex
	for _, r := range results {
		width = max(width, len(r.Agent))
	}
	for _, r := range results {
		fmt.Fprintf(w, "%-*s  %-8s  %s", width, r.Agent, r.State, r.Path)
		switch {
		case len(r.Readers) > 0:
			fmt.Fprintf(w, "  (shared by agent-switch with %s)", core.ReadersText(r.Readers))
		case r.SharedPath != "":
			fmt.Fprintf(w, "  (shared by agent-switch through %s)", r.SharedPath)
		}
		fmt.Fprintln(w)
	}
}
