package commands

import (
	"fmt"
	"io"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/projection"
)

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
