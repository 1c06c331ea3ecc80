package gates

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// Payloads as Claude Code 2.1.145+ sends them (hooks reference, "Stop
// input", "SubagentStop input").
const (
	subagentStop = `{"session_id":"abc123","transcript_path":"/home/a/.claude/projects/p/abc123.jsonl","cwd":"/p",
		"permission_mode":"default","hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"def456",
		"agent_type":"Explore","agent_transcript_path":"/home/a/.claude/projects/p/abc123/subagents/agent-def456.jsonl",
		"last_assistant_message":"Analysis complete. Found 3 potential issues..."}`
	pausedStop = `{"session_id":"abc123","transcript_path":"/t.jsonl","cwd":"/p","permission_mode":"default",
		"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Waiting for the build.",
		"background_tasks":[{"id":"b1","type":"shell","status":"running","command":"npm run build","description":"build"}],
		"session_crons":[]}`
	doneStop = `{"session_id":"abc123","transcript_path":"/t.jsonl","cwd":"/p","permission_mode":"default",
		"hook_event_name":"Stop","stop_hook_active":false,"background_tasks":[],"session_crons":[{"id":"c1",
		"schedule":"*/5 * * * *","recurring":true,"prompt":"/loop check the deploy"}]}`
)

// A SubagentStop and a pause run no gate, exit 0, and leave the session's
// block count alone; a stop with only crons scheduled is gated.
func TestHookNotGated(t *testing.T) {
	for _, kind := range []HookKind{ClaudeStop, CodexStop} {
		fs, dir := newState(t)
		loaded := 0
		load := func(StopInput) (HookOptions, error) {
			loaded++
			return HookOptions{Run: func(context.Context, Config) Report { return failingReport }}, nil
		}
		if res := RunHook(context.Background(), kind, strings.NewReader(doneStop), fs, load); res.Decision != DecisionBlock {
			t.Fatalf("%s: a done stop with failing gates: %+v", kind, res)
		}
		for _, in := range []string{subagentStop, pausedStop} {
			res := RunHook(context.Background(), kind, strings.NewReader(in), fs, load)
			if res.ExitCode != 0 || res.Stdout != "" || res.Stderr != "" || res.Decision != DecisionSkip {
				t.Fatalf("%s: %+v", kind, res)
			}
		}
		if loaded != 1 {
			t.Fatalf("%s: gates loaded %d times, want 1", kind, loaded)
		}
		log := readLog(t, filepath.Join(dir, "gates.log"))
		if len(log) != 3 || log[1].Decision != DecisionSkip || !strings.Contains(log[2].Error, "background task b1 still runs") {
			t.Fatalf("%s: log %+v", kind, log)
		}
		// The next real stop is the second block in a row, not the third.
		res := RunHook(context.Background(), kind, strings.NewReader(stopJSON("abc123", true)), fs, load)
		if got := res.Stderr + res.Stdout; !strings.Contains(got, "2 of at most 3") {
			t.Fatalf("%s: %q", kind, got)
		}
	}
}

// A payload without cwd is gated in the directory the caller's system
// says the hook runs in (HookOptions.Cwd), never this process's own.
func TestHookNoCwd(t *testing.T) {
	fs, _ := newState(t)
	wd := t.TempDir()
	var seen, ran string
	RunHook(context.Background(), ClaudeStop, strings.NewReader(`{"session_id":"s","hook_event_name":"Stop"}`), fs, func(in StopInput) (HookOptions, error) {
		seen = in.Cwd
		return HookOptions{Cwd: wd, Run: func(_ context.Context, c Config) Report { ran = c.Dir; return Report{OK: true} }}, nil
	})
	if seen != "" || ran != wd {
		t.Fatalf("load saw cwd %q, the gates ran in %q; want \"\" and %q", seen, ran, wd)
	}
}
