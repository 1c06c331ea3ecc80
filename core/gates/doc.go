// Package gates runs charter's quality gates (SPEC §10): the tests, lint
// and coverage commands a project configures, the Claude Code Stop hook
// that keeps an agent working while a required gate fails, and the edit of
// Claude's settings.json that installs that hook.
//
// Load reads the gates' share of a settings snapshot (ReadSettings, typed,
// with the key names the schema gives) and applies the project's trust.
//
// # Running the gates (`charter gate run`, POST /api/v1/gates/run)
//
//	setup, err := gates.Load(sys, snap, projectRoot) // projectRoot, else the working directory
//	cfg := setup.Config
//	names, err := gates.ParseNames(flagGate) // --gate tests,lint; nil = all
//	rep := gates.Run(ctx, cfg, names, func(e gates.Event) { … live progress … })
//	stdout.Write(rep.JSON())                 // --json: the SPEC §10 document
//	return rep.ExitCode()                    // 0, or 5 when a gate failed or timed out
//
// Coverage is required when Min > 0. Run passes ctx's cancellation to the
// running gate (its whole process group is killed), so the CLI should hand
// it a context that SIGINT and SIGTERM cancel. ParseReport and Stats are
// usable on their own for a coverage report (Go cover profile, LCOV,
// Cobertura XML, detected by content).
//
// # The Stop hook (`charter gate hook claude-stop`)
//
//	state := gates.NewFileState(sys, scopeDir+"/state")
//	res := gates.HookMain(ctx, stdin, state, func(in gates.StopInput) (gates.HookOptions, error) {
//		// resolve the project from in.Cwd, read its settings
//		return gates.HookOptions{Config: setup.Config, OnFailure: setup.OnFailure,
//			MaxBlocks: setup.MaxBlocks, RunAll: "charter gate run", Now: sys.Now}, nil
//	})
//	stdout.WriteString(res.Stdout); stderr.WriteString(res.Stderr)
//	return res.ExitCode // 0, 2 (block) or 1 (the hook's own error: never blocks)
//
// The hook prints its own messages, stderr included: the command should
// not add "charter: " lines of its own around exit 2, since Claude Code
// hands that stderr to the agent. The hook ends its gates itself shortly
// before the timeout apply writes on its entry (HookTimeout of the same
// Config.Timeout), so it answers before Claude Code cancels it.
//
// `charter gate hook codex-stop` is the same call as
// gates.RunHook(ctx, gates.CodexStop, stdin, state, load): the same
// decisions and session state, answered in Codex's protocol (a block is
// exit 0 with {"decision":"block","reason":…} on stdout).
//
// # Installing the hook (`charter apply`)
//
// The entry's command and timeout come from here; core/apply writes it
// into the agents' files:
//
//	hook := apply.StopHook{
//		Command: kind.Command(charterExe, hostRoot), // hostRoot "" unless the scope is a host root
//		Timeout: gates.HookTimeout(cfg.Timeout),     // seconds: every gate's time, and a margin
//	}
//	out, err := apply.EnsureStopHook(old, kind, hook, len(cfg.Required()) > 0)
//
// returns Claude Code's settings.json (kind gates.ClaudeStop) or Codex's
// hooks.json (gates.CodexStop), which hold the same "hooks" object, with
// charter's entry present or absent and every other byte unchanged.
package gates
