package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/mcpserver"
	"github.com/agentkit/charter/core/settings"
)

// gateRunner is the MCP server's gates_run: gates.Run in the project of
// the client's directory (else that directory), with progress as steps
// (each gate starting, each gate done).
func (a *App) gateRunner() mcpserver.GateRunner {
	return func(ctx context.Context, req mcpserver.GateRequest, progress mcpserver.Progress) (mcpserver.GateReport, error) {
		names, err := gates.ParseNames(strings.Join(req.Gates, ","))
		if err != nil {
			return mcpserver.GateReport{}, &core.UsageError{Kind: core.CodeInvalidValue, Msg: "gates: " + err.Error()}
		}
		dir := req.Dir
		if dir != "" {
			sys := *a.Sys // the same machine seen from the client's directory
			sys.Getwd = func() (string, error) { return req.Dir, nil }
			if p, err := sys.FindProject(nil, false); err != nil {
				return mcpserver.GateReport{}, err
			} else if p != nil {
				dir = p.Dir
			}
		}
		cfg := gates.FromSettings(req.Settings.Values, dir)
		total := 0
		for _, n := range cfg.Required() {
			if names == nil || contains(names, n) {
				total += 2
			}
		}
		step := 0
		rep := gates.Run(ctx, cfg, names, func(e gates.Event) {
			switch e.Kind {
			case gates.EventStart:
				step++
				progress(step, total, fmt.Sprintf("%s: running %s", e.Gate, e.Command))
			case gates.EventDone:
				if e.Result.Status == gates.StatusSkipped {
					step++ // it never started
				}
				step++
				progress(step, total, fmt.Sprintf("%s: %s", e.Gate, strings.ReplaceAll(e.Result.Status, "_", " ")))
			}
		})
		return mcpReport(rep), nil
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func mcpReport(rep gates.Report) mcpserver.GateReport {
	out := mcpserver.GateReport{OK: rep.OK, Gates: make([]mcpserver.GateResult, len(rep.Gates))}
	for i, g := range rep.Gates {
		r := mcpserver.GateResult{Name: g.Name, Status: g.Status, ExitCode: g.ExitCode, ElapsedMs: g.ElapsedMs,
			OutputTail: strings.Join(g.OutputTail, "\n"), Message: g.Message}
		if g.Coverage != nil {
			r.Coverage = &mcpserver.Coverage{Percent: settings.Dec(g.Coverage.Percent.String()), Min: settings.Dec(g.Coverage.Min.String())}
		}
		out.Gates[i] = r
	}
	return out
}
