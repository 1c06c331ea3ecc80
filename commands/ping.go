package commands

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/inert"
)

// PingCmd prints the ping document, computed here or asked of the server.
type PingCmd struct {
	Server  bool     `name:"server" help:"Ask the running server of this scope (found through its discovery file)."`
	Require []string `name:"require" placeholder:"CAP" help:"Fail with exit 6 unless this capability is supported (repeatable), e.g. configRoot." complete:"capability"`
}

func (c *PingCmd) Run(ctx context.Context, a *App) error {
	if c.Server {
		return c.askServer(ctx, a)
	}
	doc, err := a.session().Ping(ctx)
	if err != nil {
		return err
	}
	if err := require(doc, c.Require, "this charter"); err != nil {
		return err
	}
	if a.JSON {
		if _, err := a.Stdout.Write(pingJSON(doc)); err != nil {
			return fmt.Errorf("write output: %w", err)
		}
		return nil
	}
	printPing(a.Stdout, doc)
	return nil
}

// printPing prints the document for people; every path and name in it
// may come from the environment, a file or a server's answer.
func printPing(w io.Writer, doc core.PingDoc) {
	fmt.Fprintf(w, "%s %s\n", inert.Line(doc.Name), inert.Line(doc.Version))
	if doc.SwitcherProfile.Active {
		fmt.Fprintf(w, "profile:      %s (agent-switch)\n", inert.Line(doc.SwitcherProfile.Name()))
	} else {
		fmt.Fprintln(w, "profile:      none")
	}
	if len(doc.MixedProfiles) > 0 {
		fmt.Fprintf(w, "mixed:        profiles of different providers: %s\n", inert.Line(doc.MixedText()))
	}
	fmt.Fprintf(w, "config root:  %s (%s)\n", inert.Line(doc.ConfigRoot.Path), inert.Line(string(doc.ConfigRoot.Source)))
	fmt.Fprintf(w, "scope:        %s %s\n", inert.Line(string(doc.Scope.Kind)), inert.Line(doc.Scope.Path))
	if doc.Project != nil {
		fmt.Fprintf(w, "project:      %s\n", inert.Line(doc.Project.Dir))
	} else {
		fmt.Fprintln(w, "project:      none")
	}
	if t := doc.Trust; t != nil {
		line := strings.ReplaceAll(t.State, "_", " ")
		if t.Command != "" {
			line += " (trust it: " + t.Command + ")"
		}
		if t.Error != "" {
			line += ": " + t.Error
		}
		fmt.Fprintf(w, "trust:        %s\n", inert.Line(line))
	}
	if doc.Policy != nil {
		fmt.Fprintf(w, "policy:       %s\n", inert.Line(doc.Policy.Path))
	} else {
		fmt.Fprintln(w, "policy:       none")
	}
	var caps []string
	for k, on := range doc.Capabilities {
		if on {
			caps = append(caps, k)
		}
	}
	sort.Strings(caps)
	fmt.Fprintf(w, "capabilities: %s\n", inert.Line(strings.Join(caps, ", ")))
}
