package gates

import (
	"maps"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/settings"
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
	gs := ReadSettings(values)
	cfg := gs.config(dir)
	for _, k := range sys.VarNames() {
		cfg.Env = append(cfg.Env, k+"="+sys.Getenv(k))
	}
	cfg.Tests.Untrusted = tr.pending(settings.KeyGatesTestsCommand)
	cfg.Lint.Untrusted = tr.pending(settings.KeyGatesLintCommand)
	cfg.Coverage.Untrusted = tr.pending(settings.KeyGatesCoverageCommand) || tr.pending(settings.KeyGatesCoverageReport)
	cfg.TrustCommand = tr.Command
	if cfg.Tests.Required && cfg.Tests.Command == "" {
		if s, ok := DetectTests(sys, dir); ok {
			cfg.Suggested = &s
		}
	}
	return Setup{Config: cfg, OnFailure: gs.OnFailure, MaxBlocks: gs.MaxBlocks, Trust: tr}, nil
}

// Declared is the gates the values declare, trust aside: what apply renders
// (which gates are required, their time limit). Runs take Load's Config.
func Declared(values map[string]any, dir string) Config { return ReadSettings(values).config(dir) }

// Settings is the gates' share of the effective settings, typed: read once
// from the values, with the key names the schema gives.
type Settings struct {
	Tests, Lint GateSettings
	Coverage    CoverageSettings
	Timeout     time.Duration // settings.DurationValue of gates.timeout
	OnFailure   string        // gates.on_failure
	// MaxBlocks is gates.max_blocks: the number settings validated, the
	// one the agent's block and the hook's message state; a number beyond
	// the schema's bounds (no settings file can hold one) is brought within
	// them, never swapped for the default. 0 when it is not a number (the
	// hook's default).
	MaxBlocks int
}

// GateSettings is one command gate's settings.
type GateSettings struct {
	Command  string
	Required bool
}

// CoverageSettings is the coverage gate's settings.
type CoverageSettings struct {
	Command, Report string
	Min             decimal.Decimal
}

// ReadSettings reads the gates' settings from values (a snapshot's
// effective values); a missing or mistyped value is the zero value.
func ReadSettings(values map[string]any) Settings {
	str := func(k string) string { s, _ := values[k].(string); return s }
	on := func(k string) bool { b, _ := values[k].(bool); return b }
	var minimum decimal.Decimal
	if d, ok := values[settings.KeyGatesCoverageMin].(settings.Dec); ok {
		minimum, _ = decimal.NewFromString(string(d)) // the schema validated it
	}
	return Settings{
		Tests: GateSettings{Command: str(settings.KeyGatesTestsCommand), Required: on(settings.KeyGatesTestsRequired)},
		Lint:  GateSettings{Command: str(settings.KeyGatesLintCommand), Required: on(settings.KeyGatesLintRequired)},
		Coverage: CoverageSettings{Command: str(settings.KeyGatesCoverageCommand),
			Report: str(settings.KeyGatesCoverageReport), Min: minimum},
		Timeout:   settings.DurationValue(values[settings.KeyGatesTimeout]),
		OnFailure: str(settings.KeyGatesOnFailure),
		MaxBlocks: maxBlocks(values[settings.KeyGatesMaxBlocks]),
	}
}

// config is the gates' Config for a run in dir, trust aside.
func (s Settings) config(dir string) Config {
	return Config{
		Tests:    Gate{Command: s.Tests.Command, Required: s.Tests.Required},
		Lint:     Gate{Command: s.Lint.Command, Required: s.Lint.Required},
		Coverage: CoverageGate{Command: s.Coverage.Command, Report: s.Coverage.Report, Min: s.Coverage.Min},
		Timeout:  s.Timeout,
		Dir:      dir,
	}
}

// maxBlocks brings gates.max_blocks within the schema's bounds.
func maxBlocks(v any) int {
	n, ok := v.(int64)
	if !ok {
		return 0 // the hook's default
	}
	k, _ := settings.Lookup(settings.KeyGatesMaxBlocks)
	// An Int key's bounds are whole numbers.
	if hi, err := strconv.ParseInt(string(k.Max), 10, 64); err == nil {
		n = min(n, hi)
	}
	if lo, err := strconv.ParseInt(string(k.Min), 10, 64); err == nil {
		n = max(n, lo)
	}
	return int(n)
}
