package gates

import (
	"github.com/shopspring/decimal"

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

// FromSettings builds the Config of the effective settings values (a
// settings.Snapshot's Values) for a run in dir.
func FromSettings(values map[string]any, dir string) Config {
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

// HookFromSettings is the hook's share of the settings: gates.on_failure
// and gates.max_blocks. max_blocks is the number settings validated, the
// one the agent's block and the hook's message state; a number beyond the
// schema's bounds (no settings file can hold one) is brought within them,
// never swapped for the default.
func HookFromSettings(values map[string]any) (onFailure string, maxBlocks int) {
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
