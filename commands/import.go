package commands

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/importer"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/session"
)

// ImportCmd turns an agent's or a peer tool's files into charter sources
// (SPEC §12), then projects them so the native files become charter's.
type ImportCmd struct {
	From          string   `name:"from" required:"" placeholder:"AGENT|rulesync|ruler" help:"Whose files to import: an agent's native rules, skills, commands, subagents, permission rules and MCP servers (charter agents lists them), or a rulesync (.rulesync/) or ruler (.ruler/) source folder." complete:"import-from"`
	Project       bool     `name:"project" help:"Import the repository's files into its .charter/ (default: the agent's user-level folder into this scope's folder)."`
	DryRun        bool     `name:"dry-run" help:"Show what would be imported, what clashes and what is skipped; write nothing."`
	Retire        bool     `name:"retire" help:"After importing from ruler or rulesync, remove what is left of it: its generated text beside charter's block, the files it generated, its .gitignore block, and its config once every item in it is a charter source (charter uninstall puts them back)."`
	ConfirmShared bool     `name:"confirm-shared" help:"Write even through a link agent-switch shares between profiles."`
	Agent         []string `name:"agent" sep:"," placeholder:"AGENT" help:"Agents to write for besides the one read from (default: none; the report lists what charter apply would add for the others)." complete:"agent"`
}

// importDoc is `import --json`: the session's one import document.
type importDoc = session.ImportReport

func (c *ImportCmd) Run(ctx context.Context, a *App) error {
	if c.Project && a.noProject {
		return errcode.Errorf(core.CodeUsage, "import --project and --no-project contradict each other: give one of them")
	}
	if c.DryRun {
		a.readOnly("import --dry-run")
	}
	req := session.ImportRequest{From: c.From, Project: c.Project, DryRun: c.DryRun, Retire: c.Retire, ConfirmShared: c.ConfirmShared, Agents: c.Agent}
	if a.Interactive() {
		req.Confirm = a.promptShared
	}
	doc, err := a.session().Import(ctx, req)
	if doc == nil {
		return err
	}
	if err := a.emit(doc, func(w io.Writer) {
		printImport(w, a, *doc)
		printPending(w, *doc, c.Project)
		printPeer(w, *doc, c.Retire)
	}); err != nil {
		return err
	}
	if err != nil {
		return reported(err) // after the report, which says what was done
	}
	return nil
}

func printPending(w io.Writer, doc importDoc, project bool) {
	if len(doc.Pending) == 0 {
		return
	}
	run := "charter apply"
	if project {
		run += " --project"
	}
	fmt.Fprintf(w, "`%s` would then change, for the level's default agents:\n", run)
	for _, p := range doc.Pending {
		fmt.Fprintf(w, "  %s\n", inert.Line(p))
	}
}

func printImport(w io.Writer, a *App, doc importDoc) {
	res := doc.Imported
	printGovImport(w, res.Governance, doc.DryRun)
	if len(res.Items) == 0 {
		if len(res.Governance) == 0 {
			fmt.Fprintf(w, "nothing to import from %s at %s level\n", inert.Line(res.From), res.Level)
		}
		return
	}
	verb := map[string]string{importer.StateImported: "imported"}
	if doc.DryRun {
		verb[importer.StateImported] = "would import"
	}
	for _, c := range res.Items {
		state := c.State
		if v, ok := verb[state]; ok {
			state = v
		}
		// Names, paths and reasons come from the files imported.
		fmt.Fprintf(w, "%-12s  %-8s  %-24s  %s", state, c.Kind, inert.Line(c.Name), inert.Line(c.Native))
		if c.Source != "" && c.State == importer.StateImported {
			fmt.Fprintf(w, " -> %s", inert.Line(c.Source))
		}
		if c.Projection != "" {
			fmt.Fprintf(w, " (%s)", inert.Line(c.Projection))
		}
		fmt.Fprintln(w)
		if c.Reason != "" {
			fmt.Fprintf(w, "              %s\n", inert.Line(c.Reason))
		}
		for _, n := range c.Notes {
			fmt.Fprintf(w, "              note: %s\n", inert.Line(n))
		}
	}
	counts := []string{}
	for _, s := range []string{importer.StateImported, importer.StateClash, importer.StateSkipped} {
		if n := res.Count(s); n > 0 {
			label := s
			if v, ok := verb[s]; ok {
				label = v
			}
			counts = append(counts, fmt.Sprintf("%d %s", n, label))
		}
	}
	fmt.Fprintf(w, "%s", strings.Join(counts, ", "))
	if doc.DryRun {
		fmt.Fprint(w, " (dry run: nothing written)")
	}
	fmt.Fprintln(w)
	if doc.Apply != nil {
		printReport(w, *doc.Apply, a.Stderr)
	}
}

// printGovImport prints the permission rules and servers import found:
// each with what became of it, the native entry and its file.
func printGovImport(w io.Writer, items []importer.GovItem, dryRun bool) {
	for _, g := range items {
		state := g.State
		if state == importer.StateImported && dryRun {
			state = "would import"
		}
		what := g.Server
		if g.What == importer.WhatRule {
			what = g.Verdict + " " + g.Rule
			if g.Rule == "" {
				what = "-"
			}
		}
		// Entries, names and paths come from the agent's files.
		fmt.Fprintf(w, "%-12s  %-8s  %-24s  %s in %s\n", state, g.What, inert.Line(what), inert.Line(g.Native), inert.Line(g.File))
		if g.Reason != "" {
			fmt.Fprintf(w, "              %s\n", inert.Line(g.Reason))
		}
		for _, n := range g.Notes {
			fmt.Fprintf(w, "              note: %s\n", inert.Line(n))
		}
	}
}

// printPeer says what is left of ruler or rulesync beside charter, or
// what --retire removed.
func printPeer(w io.Writer, doc importDoc, retire bool) {
	l := doc.Peer
	if l == nil || (l.Empty() && len(l.Kept) == 0) {
		return
	}
	head, verb := "left of "+l.Tool+" beside charter:", "left"
	switch {
	case doc.Retired:
		head, verb = "retired "+l.Tool+":", "removed"
	case retire && doc.DryRun:
		head, verb = "would retire "+l.Tool+":", "would remove"
	}
	fmt.Fprintln(w, head)
	for _, c := range l.Changes {
		fmt.Fprintf(w, "  %-12s  %-16s  %s\n", verb, c.What, inert.Line(c.Path))
	}
	for _, k := range l.Kept {
		fmt.Fprintf(w, "  kept: %s\n", inert.Line(k))
	}
	if !retire && !l.Empty() {
		fmt.Fprintf(w, "while %s's files stay, %s and charter both manage them: run `charter import --from %s --project --retire` to remove them (`charter uninstall --project` puts them back)\n", l.Tool, l.Tool, l.Tool)
	}
}
