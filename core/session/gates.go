package session

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/gates"
)

// GateRequest is one run of the quality gates, as a skin received it.
type GateRequest struct {
	// Gates are the gates to run, as given (checked here); nil runs every
	// required gate, an empty name is an unknown gate.
	Gates []string
	// Events, when set, sees each gate start, write and end (the CLI's
	// progress). Progress, when set, gets the same as steps: each gate
	// that runs counts two (its start and its end), a skipped or
	// untrusted one two at once (MCP's progress notifications).
	Events   func(gates.Event)
	Progress func(done, total int, msg string)
	// Once, when set, is the skin's one-run-at-a-time guard (a server's),
	// claimed once the names are checked: a second run meanwhile fails
	// with gate_running.
	Once *gates.OneRun
	// Started, when set, learns how many gates the settings require
	// before any runs (the CLI notes when none is).
	Started func(required int)
}

// GateRun is a run's one document (its Report) and what a skin says
// beside it.
type GateRun struct {
	Report   gates.Report
	Required int    // the gates required by the settings, run or not
	Trust    string // the command that trusts the project, for an untrusted gate
}

// GateSetup is the gates of the settings in force, for a run where they
// run: the project's root, else the directory the project was looked for
// from, else the working directory.
func (s *Session) GateSetup(ctx context.Context) (gates.Setup, error) {
	if err := ctx.Err(); err != nil {
		return gates.Setup{}, err
	}
	_, snap, err := s.Read()
	if err != nil {
		return gates.Setup{}, err
	}
	dir, err := s.GateDir()
	if err != nil {
		return gates.Setup{}, err
	}
	return gates.Load(s.Sys, snap, dir)
}

// RunGates is the whole gate run: the names checked, the settings read,
// the gates loaded where they run, then run one after the other. A
// cancelled ctx kills the running gate's process group and runs no
// other; the report then says so, and the error is nil (the report is the
// outcome).
func (s *Session) RunGates(ctx context.Context, req GateRequest) (*GateRun, error) {
	var names []string
	if req.Gates != nil {
		var err error
		if names, err = gates.ParseList(req.Gates); err != nil {
			return nil, err
		}
	}
	if req.Once != nil {
		end, err := req.Once.Begin()
		if err != nil {
			return nil, err
		}
		defer end()
	}
	setup, err := s.GateSetup(ctx)
	if err != nil {
		return nil, err
	}
	cfg := setup.Config
	events := req.Events
	if req.Progress != nil {
		events = steps(cfg, names, req.Events, req.Progress)
	}
	if req.Started != nil {
		req.Started(len(cfg.Required()))
	}
	rep := gates.Run(ctx, cfg, names, events)
	return &GateRun{Report: rep, Required: len(cfg.Required()), Trust: setup.Trust.Command}, nil
}

// Verdict is the error a failed run ends with (check_failed: the gates
// that failed, the ones the project's trust held back and how to trust
// it), or interrupted when ctx was cancelled; nil when every gate passed.
func (r *GateRun) Verdict(ctx context.Context) error {
	if ctx.Err() != nil {
		return core.Errorf(core.CodeInternal, "interrupted: the running gate was stopped and the others were not run")
	}
	if r.Report.OK {
		return nil
	}
	var failed, untrusted []string
	for _, g := range r.Report.Failing() {
		failed = append(failed, g.Name)
	}
	for _, g := range r.Report.Untrusted() {
		untrusted = append(untrusted, g.Name)
	}
	var why []string
	if len(failed) > 0 {
		why = append(why, "a required gate failed: "+strings.Join(failed, ", "))
	}
	if len(untrusted) > 0 {
		why = append(why, fmt.Sprintf("not run because the project is not trusted: %s (check its commands, then run `%s`)", strings.Join(untrusted, ", "), r.Trust))
	}
	return core.Errorf(core.CodeCheckFailed, "%s", strings.Join(why, "; "))
}

// steps turns a run's events into progress steps (GateRequest.Progress).
func steps(cfg gates.Config, names []string, also func(gates.Event), progress func(done, total int, msg string)) func(gates.Event) {
	total := 0
	for _, n := range cfg.Required() {
		if names == nil || slices.Contains(names, n) {
			total += 2
		}
	}
	step := 0
	return func(e gates.Event) {
		if also != nil {
			also(e)
		}
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
	}
}
