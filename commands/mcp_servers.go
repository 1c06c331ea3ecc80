package commands

import (
	"context"
	"fmt"
	"io"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/session"
)

// McpServersCmd groups the MCP-server commands (SPEC §14).
type McpServersCmd struct {
	List McpServersListCmd `cmd:"" help:"List the MCP servers the layers and the policy declare: command or URL, origin, and whether apply projects each (and why not)."`
}

// McpServersListCmd lists the servers.
type McpServersListCmd struct{}

// serversDoc is `charter mcp-servers list --json`.
type serversDoc struct {
	Servers []session.ServerRow `json:"servers"`
}

func (c *McpServersListCmd) Run(ctx context.Context, a *App) error {
	rows, err := a.session().MCPServers(ctx)
	if err != nil {
		return err
	}
	return a.emit(serversDoc{Servers: rows}, func(w io.Writer) {
		if len(rows) == 0 {
			fmt.Fprintln(w, "No MCP servers declared.")
		}
		what := func(r session.ServerRow) string {
			if r.Command != "" {
				return inert.Line(r.Command)
			}
			return inert.Line(r.URL) // commands, URLs and paths come from the project's files
		}
		nw, ww, lw, ow := 4, 4, 5, 4
		for _, r := range rows {
			nw, ww, lw, ow = max(nw, len(r.Name)), max(ww, len(what(r))), max(lw, len(r.Layer)), max(ow, len(inert.Line(r.Origin)))
		}
		for _, r := range rows {
			state := "projected"
			if !r.Projected {
				state = "not projected: " + serverReason(r.Reason)
			}
			fmt.Fprintf(w, "%-*s  %-*s  %-*s  %-*s  %s\n", nw, r.Name, ww, what(r), lw, r.Layer, ow, inert.Line(r.Origin), state)
		}
	})
}

func serverReason(r string) string {
	switch r {
	case apply.ServerDisabled:
		return "disabled (mcp.disabled)"
	case apply.ServerNotAllowed:
		return "not in the policy's mcp.allowed"
	case apply.ServerUntrusted:
		return "from an untrusted project (charter trust)"
	}
	return r
}
