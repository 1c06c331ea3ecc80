package agenttest

import (
	"strings"
	"testing"
)

// gateFailed is what the failing gate prints; the command's own text
// ("GATE-%s-…") differs from it, so a count of it is a count of runs
// reported, not of places that name the command.
const (
	gateCommand = "printf 'GATE-%s-8e2f\\n' FAILED; exit 1"
	gateFailed  = "GATE-FAILED-8e2f"
	maxBlocks   = 3 // gates.max_blocks' default
)

// TestClaudeStopHookBlocks: a project whose tests gate fails, trusted,
// applied at both levels as a user does (charter on PATH, so both levels'
// hooks are the same command, which Claude Code runs once). When the mock's answer ends the
// turn, charter's Stop hook blocks: Claude Code sends the model a
// follow-up request whose new message is the gate's failure, up to
// gates.max_blocks times, then lets the run end. Untrusted, the same
// project's gate never runs: one request, no failure.
func TestClaudeStopHookBlocks(t *testing.T) {
	bin(t, "claude")
	w := newWorld(t)
	write(t, w.project, ".charter/settings.yaml", "")
	env := charterEnv(t, w)
	for _, args := range [][]string{
		{"settings", "set", "--project", "gates.tests.command", gateCommand},
		{"trust"},
		{"apply", "--agent", "claude"},
		{"apply", "--project", "--agent", "claude"},
	} {
		if out, err := run(t, w.project, env, charter(t), args...); err != nil {
			t.Fatalf("charter %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}

	m := newMock(t)
	runClaude(t, w, env, m, "hi")
	turns := anthropicTurns(m)
	t.Run("blocks", func(t *testing.T) {
		if n := count(anthropicTurn(t, m, 0), gateFailed); n != 0 {
			t.Fatalf("the gate's failure reached the model %d times before the agent stopped", n)
		}
		feedback := lastUserText(t, m, 1)
		if !strings.Contains(feedback, gateFailed) {
			t.Fatalf("the follow-up request does not carry the gate's failure:\n%s", feedback)
		}
		t.Logf("follow-up request %d of %d: %s", 2, len(turns), lineOf(feedback, "Stop hook feedback"))
	})
	t.Run("once-per-stop", func(t *testing.T) {
		for i := 1; i < len(turns); i++ {
			if n := count(lastUserText(t, m, i), gateFailed); n != 1 {
				t.Errorf("request %d: the gate's failure reached the model %d times for one stop, want once", i+1, n)
			}
		}
		if len(turns) != 1+maxBlocks {
			t.Errorf("Claude Code sent %d requests, want %d: the first and one per block (gates.max_blocks %d)", len(turns), 1+maxBlocks, maxBlocks)
		}
	})

	if out, err := run(t, w.project, env, charter(t), "trust", "--revoke"); err != nil {
		t.Fatalf("charter trust --revoke: %v\n%s", err, out)
	}
	m = newMock(t)
	runClaude(t, w, env, m, "hi")
	t.Run("untrusted-never-runs", func(t *testing.T) {
		if n := len(anthropicTurns(m)); n != 1 {
			t.Errorf("untrusted: Claude Code sent %d requests, want 1 (the gate must not run or block)", n)
		}
		if n := count(m.Sent(), gateFailed); n != 0 {
			t.Errorf("untrusted: the gate ran, its failure reached the model %d times", n)
		}
	})
}
