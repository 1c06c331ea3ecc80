package commands

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/loaded"
)

// GateClaudeLoadedCmd is Claude Code's InstructionsLoaded hook. It only
// observes: whatever happens it exits 0, with a note on stderr, so it never
// stands in the agent's way.
type GateClaudeLoadedCmd struct{}

func (c *GateClaudeLoadedCmd) Run(ctx context.Context, a *App) error {
	a.serving("claude") // the hook's own agent chooses the profile
	if err := a.session().RecordLoaded(ctx, "claude", a.Stdin); err != nil {
		fmt.Fprintf(a.Stderr, "charter: note: %s\n", err)
	}
	return nil
}

func (a *App) statusContent(ctx context.Context, k content.Kind) error {
	doc, err := a.session().ContentStatus(ctx, k)
	if err != nil {
		return err
	}
	return a.emit(doc, func(w io.Writer) {
		if len(doc.Items) == 0 {
			fmt.Fprintf(w, "no %s yet: add one with `charter %s new NAME` (--project for the repository's)\n", k.Dir(), commandOf(k))
			return
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tSTATE\tLEVEL\tLOADED")
		for _, e := range doc.Items {
			fmt.Fprintln(tw, strings.Join([]string{inert.Line(e.Name), e.State, e.Level, inert.Line(loadedText(e.Loaded))}, "\t"))
		}
		tw.Flush()
		if !doc.Reported {
			fmt.Fprintln(w, "no Claude Code session has reported loading instructions here yet: `charter apply` installs the InstructionsLoaded hook that reports it (see docs/content.md)")
		}
	})
}

func loadedText(s loaded.Status) string {
	at := ""
	if s.At != nil {
		at = s.At.Local().Format(time.DateTime)
	}
	switch s.State {
	case loaded.StateLoaded:
		return fmt.Sprintf("loaded by %s in the last session (at %s)", s.Agent, at)
	case loaded.StateNotLoaded:
		return fmt.Sprintf("not loaded in the last session (loaded by %s at %s)", s.Agent, at)
	}
	return "never loaded"
}
