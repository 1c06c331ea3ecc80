package commands

import (
	"context"
	"fmt"
	"io"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/projection"
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

// uninstallChange is one file uninstall changes.
type uninstallChange struct {
	Path  string `json:"path"`
	Agent string `json:"agent,omitempty"`
	// What is taken out: block, hook, mcp (an entry in the file), file (a
	// projected file), original (a file import took over, put back),
	// sources (a source folder).
	What  string `json:"what"`
	State string `json:"state"` // removed, deleted, restored, left, blocked, edited; "would ..." in a dry run
}

type uninstallDoc struct {
	Level   string            `json:"level"`
	DryRun  bool              `json:"dryRun"`
	Changes []uninstallChange `json:"changes"`
}

func (c *UninstallCmd) Run(ctx context.Context, a *App) error {
	if c.Project && a.noProject {
		return core.Errorf(core.CodeUsage, "uninstall --project and --no-project contradict each other: give one of them")
	}
	if c.DryRun {
		a.readOnly("uninstall --dry-run")
	}
	s := a.session()
	u, err := s.PlanUninstall(session.UninstallRequest{Project: c.Project, Force: c.Force})
	if err != nil {
		return err
	}
	var sources []string
	if c.Sources {
		if sources, err = s.SourceFolders(c.Project); err != nil {
			return err
		}
	}
	doc := uninstallDoc{Level: apply.LevelUser, DryRun: c.DryRun}
	if c.Project {
		doc.Level = apply.LevelProject
	}
	if u.Full.Content != nil {
		if err := u.Full.Content.Conflict(); err != nil {
			return core.Errorf(core.CodeProjectionConflict, "%s\nnothing was changed: put the file back as charter wrote it, or run `%s --force` to leave it as it is", s.Sys.ErrorMessage(err), c.command())
		}
	}
	if c.DryRun {
		doc.Changes = planned(u, sources)
		return a.emit(doc, func(w io.Writer) { printUninstall(w, doc) })
	}
	confirm := c.ConfirmShared
	var results []apply.Result
	var restored, left []string
	err = a.guarded(c.ConfirmShared, func(ok bool) error {
		confirm = ok
		if err := u.Full.Guard(s.Sys, ok); err != nil {
			return err
		}
		var err error
		results, restored, left, err = s.RunUninstall(ctx, u, ok)
		return err
	})
	if err != nil {
		return err
	}
	doc.Changes = done(u, results, restored, left)
	if len(sources) > 0 {
		if err := s.RemoveSources(sources, u.Root, confirm); err != nil {
			return err
		}
		for _, p := range sources {
			doc.Changes = append(doc.Changes, uninstallChange{Path: p, What: "sources", State: "deleted"})
		}
	}
	return a.emit(doc, func(w io.Writer) { printUninstall(w, doc) })
}

func (c *UninstallCmd) command() string {
	if c.Project {
		return "charter uninstall --project"
	}
	return "charter uninstall"
}

// what names what a target takes out of its file.
func what(t apply.Target) string {
	if _, hook := t.StopHook(); hook {
		return "hook"
	}
	if t.Agent == apply.MCPTarget {
		return "mcp"
	}
	if t.Agent == apply.GovRecordAgent {
		return "record"
	}
	if t.Governs() {
		return "entries"
	}
	return "block"
}

// planned is a dry run's changes.
func planned(u *session.Uninstall, sources []string) []uninstallChange {
	out := []uninstallChange{}
	for _, t := range u.Full.Targets {
		state := "would remove"
		if t.New == nil {
			state = "would delete"
		}
		out = append(out, uninstallChange{Path: t.Path, Agent: t.Agent, What: what(t), State: state})
	}
	out = append(out, projected(u, "would delete")...)
	for _, f := range u.Restore {
		out = append(out, uninstallChange{Path: f.Path, What: "original", State: "would restore"})
	}
	for _, p := range sources {
		out = append(out, uninstallChange{Path: p, What: "sources", State: "would delete"})
	}
	return out
}

// projected are the recorded files the plan deletes (or, forced, lets go).
func projected(u *session.Uninstall, deleted string) []uninstallChange {
	var out []uninstallChange
	if u.Full.Content == nil {
		return out
	}
	for _, e := range u.Full.Content.Entries {
		if e.Path == nil {
			continue
		}
		state := e.State
		if state == projection.StatePruned {
			state = deleted
		}
		out = append(out, uninstallChange{Path: *e.Path, Agent: e.Agent, What: "file", State: state})
	}
	return out
}

// done is a run's changes.
func done(u *session.Uninstall, results []apply.Result, restored, left []string) []uninstallChange {
	out := []uninstallChange{}
	for i, r := range results {
		state := r.State
		switch r.State {
		case apply.StateWritten:
			state = "removed"
		case projection.StatePruned:
			state = "deleted"
		}
		out = append(out, uninstallChange{Path: r.Path, Agent: r.Agent, What: what(u.Full.Targets[i]), State: state})
	}
	out = append(out, projected(u, "deleted")...)
	for _, p := range restored {
		out = append(out, uninstallChange{Path: p, What: "original", State: "restored"})
	}
	for _, p := range left {
		out = append(out, uninstallChange{Path: p, What: "original", State: "left"})
	}
	return out
}

func printUninstall(w io.Writer, doc uninstallDoc) {
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
