package commands

import (
	"fmt"
	"io"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/inert"
)

// printNotes warns of what the user must do before an agent acts on a
// file apply wrote (Codex skips charter's hook until it is reviewed), one
// line each: what, then how.
func printNotes(stderr io.Writer, results []apply.Result) {
	for _, r := range results {
		for _, n := range r.Notes {
			// The text names paths from the user's files.
			fmt.Fprintf(stderr, "charter: warning: %s: %s\n", inert.Line(n.Message), inert.Line(n.Fix))
		}
	}
}
