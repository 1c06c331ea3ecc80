package commands

import (
	"bufio"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/inert"
)

// printReport prints one table: a row per instruction file, hook entry
// and projected file (agent, state, path, then the kind and item of a
// projected file), aligned together, then the budget line of each agent.
func printReport(out io.Writer, rep apply.FullReport, stderr io.Writer) {
	// One write for thousands of rows, not one each.
	w := bufio.NewWriter(out)
	defer w.Flush()
	type row struct{ agent, state, path, note string }
	rows := make([]row, 0, len(rep.Targets)+len(rep.Files))
	for _, r := range rep.Targets {
		if r.State == apply.StateSkipped {
			rows = append(rows, row{r.Agent, r.State, "-", "(" + r.Reason + ")"})
			continue
		}
		rows = append(rows, row{r.Agent, r.State, r.Path, shared(r.SharedPath, r.ReadersText())})
	}
	for _, e := range rep.Files {
		path := "-" // unsupported: the agent has no place for the kind
		if e.Path != nil {
			path = *e.Path
		}
		note := e.Kind + " " + e.Item
		if e.Note != "" {
			note += " (" + e.Note + ")"
		}
		if s := shared(e.SharedPath, ""); s != "" {
			note += " " + s
		}
		rows = append(rows, row{e.Agent, e.State, path, note})
	}
	for _, u := range rep.Unsupported {
		// A permission rule or server the agent has no place for.
		rows = append(rows, row{u.Agent, "unsupported", "-", u.What + " (" + u.Reason + ")"})
	}
	for _, k := range rep.Kept {
		rows = append(rows, row{k.Agent, "kept", k.Path, k.What + " (" + k.Reason + ")"})
	}
	for _, g := range rep.Ignored {
		rows = append(rows, row{g.Agent, "ignored", g.Path, "(in the record, but no " + g.Kind + " " + g.Item + " is ever projected there: charter does not touch it)"})
	}
	aw, sw := 6, 8 // claude, codex; outdated
	for _, r := range rows {
		aw, sw = max(aw, len(r.agent)), max(sw, len(r.state))
	}
	var line []byte // a row at a time, as fmt's %-*s would pad it
	for _, r := range rows {
		// Paths and item names come from the project and its sources.
		line = append(padRight(line[:0], r.agent, aw), "  "...)
		line = append(padRight(line, r.state, sw), "  "...)
		line = append(line, inert.Line(r.path)...)
		if r.note != "" {
			line = append(append(line, "  "...), inert.Line(r.note)...)
		}
		w.Write(append(line, '\n'))
	}
	for _, b := range rep.Budget {
		if b.Limit > 0 {
			fmt.Fprintf(w, "budget %s: %d bytes always loaded (limit %d)\n", b.Agent, b.Bytes, b.Limit)
		} else {
			fmt.Fprintf(w, "budget %s: %d bytes always loaded\n", b.Agent, b.Bytes)
		}
		if b.Over() {
			w.Flush() // in order with the warning on a shared terminal
			fmt.Fprintf(stderr, "charter: warning: %s loads %d bytes of instructions, over its documented limit of %d: it will not read them all; disable rules or scope them with globs\n", b.Agent, b.Bytes, b.Limit)
		}
	}
	w.Flush()
	printNotes(stderr, rep.Targets)
}

// padRight appends s and then spaces up to width characters, as fmt's
// %-*s does.
func padRight(b []byte, s string, width int) []byte {
	b = append(b, s...)
	for n := utf8.RuneCountInString(s); n < width; n++ {
		b = append(b, ' ')
	}
	return b
}

// shared is the note of a file the companion shares: the profiles that
// read it when known, else the link on its way.
func shared(link, readers string) string {
	switch {
	case readers != "":
		return "(shared by agent-switch with " + readers + ")"
	case link != "":
		return "(shared by agent-switch through " + link + ")"
	}
	return ""
}
