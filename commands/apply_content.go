package commands

import (
	"fmt"
	"io"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/projection"
	"github.com/agentkit/charter/core/settings"
)

// loadActive is the content loader's seam: the active items of a level
// (SPEC §12), nil when the sources hold none. The content package's loader
// plugs in here.
var loadActive = func(a *App, snap *settings.Snapshot, proj *core.Project) ([]content.Item, error) {
	return nil, nil
}

// content is what apply projects at this level; nil when there is nothing
// to project and nothing was ever projected (the instruction files alone).
func (c *ApplyCmd) content(a *App, snap *settings.Snapshot, proj *core.Project) (*apply.Content, error) {
	items, err := loadActive(a, snap, proj)
	if err != nil {
		return nil, err
	}
	out := &apply.Content{Items: items, Force: c.Force, Autoload: snap.Values["skills.autoload"] != false}
	var record string
	if proj != nil {
		record = a.Sys.Paths.Join(proj.Dir, ".charter", "projection.lock")
	} else {
		sc, err := a.Scope()
		if err != nil {
			return nil, err
		}
		record = a.Sys.Paths.Join(sc.Path, "state", "projection.json")
		out.RecordPath = record
	}
	if len(items) == 0 {
		if _, err := a.Sys.Fs.Stat(record); err != nil {
			return nil, nil
		}
	}
	return out, nil
}

// applyReport is `apply --json`: the instruction files as before, one
// entry per projected file, and the budget per agent.
type applyReport struct {
	apply.Report
	Files  []projection.Entry `json:"files,omitempty"`
	Budget []apply.Budget     `json:"budget,omitempty"`
}

func report(a *App, results []apply.Result, full *apply.Full) applyReport {
	rep := applyReport{Report: apply.NewReport(a.Sys, results), Budget: full.Budget}
	if full.Content != nil {
		rep.Files = full.Content.Entries
	}
	return rep
}

func printReport(w io.Writer, rep applyReport, stderr io.Writer) {
	printResults(w, rep.Targets)
	for _, e := range rep.Files {
		path := "-"
		if e.Path != nil {
			path = *e.Path
		}
		fmt.Fprintf(w, "%-7s  %-11s  %s %s  %s\n", e.Agent, e.State, e.Kind, e.Item, path)
	}
	for _, b := range rep.Budget {
		if b.Limit > 0 {
			fmt.Fprintf(w, "budget %s: %d bytes always loaded (limit %d)\n", b.Agent, b.Bytes, b.Limit)
		} else {
			fmt.Fprintf(w, "budget %s: %d bytes always loaded\n", b.Agent, b.Bytes)
		}
		if b.Over() {
			fmt.Fprintf(stderr, "charter: warning: %s loads %d bytes of instructions, over its documented limit of %d: it will not read them all; disable rules or scope them with globs\n", b.Agent, b.Bytes, b.Limit)
		}
	}
}
