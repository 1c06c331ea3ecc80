package gates

import (
	"maps"

	"github.com/shopspring/decimal"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/settings"
)

// Setting names the gates read; the schema in core/settings defines them.
const (
	KeyTestsCommand    = "gates.tests.command"
	KeyTestsRequired   = "gates.tests.required"
	KeyLintCommand     = "gates.lint.command"
	KeyLintRequired    = "gates.lint.required"
	KeyCoverageCommand = "gates.coverage.command"
	KeyCoverageReport  = "gates.coverage.report"
	KeyCoverageMin     = "gates.coverage.min"
	KeyTimeout         = "gates.timeout"
	KeyOnFailure       = "gates.on_failure"
	KeyMaxBlocks       = "gates.max_blocks"
)

// Setup is what a run of the gates needs, built in one place from the
// effective settings: the gates, the hook's settings, and the project's
// trust state, which every skin (gate run, the Stop hooks, MCP, the hub)
// gets from here.
type Setup struct {
	Config    Config
	OnFailure string // gates.on_failure
	MaxBlocks int    // gates.max_blocks; 0 when out of range
	Trust     Trust
}

// Load builds the Setup of snap for a run in dir. In an untrusted project
// (SPEC §13) a gate whose command or report comes from a project layer is
// marked untrusted (Run lists it and never runs it), and the steering
// values of project layers (timeout, on_failure, max_blocks) give way to
// the layers below.
func Load(sys *core.System, snap *settings.Snapshot, dir string) (Setup, error) {
	tr, err := TrustOf(sys, snap)
	if err != nil {
		return Setup{}, err
	}
	values := snap.Values
	if !tr.Trusted() {
		values = maps.Clone(values)
		for _, k := range steerKeys {
			if v, ok := snap.BelowProject[k]; ok {
				values[k] = v
			}
		}
	}
	cfg := Declared(values, dir)
	cfg.Tests.Untrusted = tr.pending(KeyTestsCommand)
	cfg.Lint.Untrusted = tr.pending(KeyLintCommand)
	cfg.Coverage.Untrusted = tr.pending(KeyCoverageCommand) || tr.pending(KeyCoverageReport)
	cfg.TrustCommand = tr.Command
	onFailure, maxBlocks := hookSettings(values)
	return Setup{Config: cfg, OnFailure: onFailure, MaxBlocks: maxBlocks, Trust: tr}, nil
}

// Declared is the gates the values declare, trust aside: what apply renders
// (which gates are required, their time limit). Runs take Load's Config.
func Declared(values map[string]any, dir string) Config {
	str := func(k string) string { s, _ := values[k].(string); return s }
	on := func(k string) bool { b, _ := values[k].(bool); return b }
	var minimum decimal.Decimal
	if d, ok := values[KeyCoverageMin].(settings.Dec); ok {
		minimum, _ = decimal.NewFromString(string(d)) // the schema validated it
	}
	return Config{
		Tests:    Gate{Command: str(KeyTestsCommand), Required: on(KeyTestsRequired)},
		Lint:     Gate{Command: str(KeyLintCommand), Required: on(KeyLintRequired)},
		Coverage: CoverageGate{Command: str(KeyCoverageCommand), Report: str(KeyCoverageReport), Min: minimum},
		Timeout:  settings.DurationValue(values[KeyTimeout]),
		Dir:      dir,
	}
}

// hookSettings is the hook's share of the settings: gates.on_failure
// and gates.max_blocks. max_blocks is the number settings validated, the
// one the agent's block and the hook's message state; a number beyond the
// schema's bounds (no settings file can hold one) is brought within them,
// never swapped for the default.
func hookSettings(values map[string]any) (onFailure string, maxBlocks int) {
	onFailure, _ = values[KeyOnFailure].(string)
	n, ok := values[KeyMaxBlocks].(int64)
	if !ok {
		return onFailure, 0 // the hook's default
	}
	k, _ := settings.Lookup(KeyMaxBlocks)
	if k.Max != nil {
		n = min(n, k.Max.IntPart())
	}
	if k.Min != nil {
		n = max(n, k.Min.IntPart())
	}
	return onFailure, int(n)
}
