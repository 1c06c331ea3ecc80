package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/mcpserver"
)

// gateRunner is the MCP server's gates_run: gates.Run of the config the
// server built, in the directory it chose (the project's root, else the
// client's directory), with progress as steps: each gate that runs counts
// two (its start and its end), a skipped or untrusted one two at once.
func (a *App) gateRunner() mcpserver.GateRunner {
	return func(ctx context.Context, req mcpserver.GateRequest, progress mcpserver.Progress) (gates.Report, error) {
		names, err := gates.ParseList(req.Gates)
		if err != nil {
			return gates.Report{}, &core.Error{Kind: core.CodeInvalidValue, Msg: "gates: " + err.Error()}
		}
		cfg := req.Config // gates.Load's: the project's trust is decided
		total := 0
		for _, n := range cfg.Required() {
			if names == nil || slices.Contains(names, n) {
				total += 2
			}
		}
		step := 0
		return gates.Run(ctx, cfg, names, func(e gates.Event) {
			switch e.Kind {
			case gates.EventStart:
				step++
				progress(step, total, fmt.Sprintf("%s: running %s", e.Gate, e.Command))
			case gates.EventDone:
				if st := e.Result.Status; st == gates.StatusSkipped || st == gates.StatusUntrusted {
					step++ // it never started
				}
				step++
				progress(step, total, fmt.Sprintf("%s: %s", e.Gate, strings.ReplaceAll(e.Result.Status, "_", " ")))
			}
		}), nil
	}
}
