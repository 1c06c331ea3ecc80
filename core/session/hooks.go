package session

import (
	"context"
	"fmt"
	"io"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/loaded"
)

// The hooks an agent runs: charter answers on the agent's behalf, in the
// profile of the agent the skin chose (System.Serving) before it made
// this session.

// StopHook answers one Stop event of kind's agent read from stdin: the
// gates of the project at the agent session's folder, with the state of
// the blocks so far. The result is what the agent reads (stdout, stderr,
// exit code); a failure of charter's own is never a block.
func (s *Session) StopHook(ctx context.Context, kind gates.HookKind, stdin io.Reader) (gates.HookResult, error) {
	sc, err := s.Scope()
	if err != nil {
		return gates.HookResult{}, err
	}
	state := gates.NewFileState(s.Sys, s.Sys.Paths.Join(sc.Path, "state"))
	runAll := "charter gate run"
	if sc.Kind == core.ScopeHost {
		runAll = "charter --config-root " + sc.Root.Path + " gate run"
	}
	return gates.RunHook(ctx, kind, stdin, state, func(in gates.StopInput) (gates.HookOptions, error) {
		// The agent session's cwd is this run's working directory: its
		// project and settings are the ones that count.
		cwd := in.Cwd
		if cwd == "" {
			var err error
			if cwd, err = s.Sys.Getwd(); err != nil {
				return gates.HookOptions{}, fmt.Errorf("find the working directory the hook runs in: %w", err)
			}
		}
		// A session whose folder is gone has no gates to run: charter's
		// own error (exit 1), never a block.
		if fi, err := s.Sys.Fs.Stat(cwd); err != nil || !fi.IsDir() {
			return gates.HookOptions{}, fmt.Errorf("the session's folder %s does not exist any more (or is no folder), so no gate ran and the stop is not blocked", cwd)
		}
		opts := s.opts
		opts.From = cwd
		setup, err := New(s.Sys, opts).GateSetup(ctx)
		if err != nil {
			return gates.HookOptions{}, err
		}
		return gates.HookOptions{Config: setup.Config, OnFailure: setup.OnFailure, MaxBlocks: setup.MaxBlocks, Cwd: cwd,
			RunAll: runAll, Now: s.Sys.Now}, nil
	}), nil
}

// RecordLoaded records which instruction files agent's session loaded,
// from the InstructionsLoaded event on stdin, for `charter rules` and
// the content status.
func (s *Session) RecordLoaded(ctx context.Context, agent string, stdin io.Reader) error {
	in, err := loaded.ReadInput(stdin)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	sc, err := s.Scope()
	if err != nil {
		return err
	}
	return loaded.Record(ctx, s.Sys, s.Sys.Paths.Join(sc.Path, "state"), agent, in)
}
