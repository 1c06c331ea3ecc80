package commands

import (
	"context"
	"fmt"
	"io"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/session"
)

// UninstallCmd takes charter out of the agents' files (SPEC §16).
type UninstallCmd struct {
	Project       bool `name:"project" help:"Take charter out of the repository's files (default: the user-level files of this scope)."`
	DryRun        bool `name:"dry-run" help:"Say what would be removed and restored; change nothing."`
	Sources       bool `name:"sources" help:"Remove the level's sources too (rules/, skills/, commands/, subagents/); they stay by default."`
	Force         bool `name:"force" help:"Let go of projected files edited since charter wrote them: they stay as they are."`
	ConfirmShared bool `name:"confirm-shared" help:"Write even through a link agent-switch shares between profiles."`
}

func (c *UninstallCmd) Run(ctx context.Context, a *App) error {
	if c.Project && a.noProject {
		return errcode.Errorf(core.CodeUsage, "uninstall --project and --no-project contradict each other: give one of them")
	}
	if c.DryRun {
		a.readOnly("uninstall --dry-run")
	}
	req := session.UninstallRequest{Project: c.Project, Force: c.Force, DryRun: c.DryRun, Sources: c.Sources, ConfirmShared: c.ConfirmShared}
	if a.Interactive() {
		req.Confirm = a.promptShared
	}
	doc, err := a.session().Uninstall(ctx, req)
	if err != nil {
		return err
	}
	return a.emit(doc, func(w io.Writer) { printUninstall(w, doc) })
}

func printUninstall(w io.Writer, doc session.UninstallDoc) {
	if len(doc.Changes) == 0 {
		fmt.Fprintf(w, "nothing of charter's in the agents' %s-level files\n", doc.Level)
		return
	}
	label := map[string]string{"block": "charter's block", "hook": "charter's hook entries", "mcp": "charter's MCP entry",
		"entries": "charter's permission and server entries", "record": "charter's record of those entries",
		"file": "projected file", "original": "file as it was before charter import", "sources": "source folder"}
	for _, c := range doc.Changes {
		fmt.Fprintf(w, "%-14s  %-38s  %s\n", c.State, label[c.What], inert.Line(c.Path))
		if c.State == "left" {
			fmt.Fprintf(w, "                a file stands there now: charter leaves it; the original is not restored\n")
		}
	}
	if doc.DryRun {
		fmt.Fprintln(w, "(dry run: nothing changed)")
	}
}
