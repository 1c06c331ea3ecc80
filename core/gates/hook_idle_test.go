package gates

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A stop that passes with nothing remembered writes no session file (no
// fsync on an agent's every turn); one that resets a count still does.
func TestHookIdleStopWritesNoState(t *testing.T) {
	state, dir := newState(t)
	stop := func(active bool, rep Report) HookResult {
		return HookMain(context.Background(), strings.NewReader(stopJSON("s", active)), state,
			func(StopInput) (HookOptions, error) {
				return HookOptions{Run: func(context.Context, Config) Report { return rep }}, nil
			})
	}
	sessions := func() int {
		names, _ := filepath.Glob(filepath.Join(dir, "gates-sessions", "*.json"))
		return len(names)
	}
	if r := stop(false, passingReport); r.ExitCode != 0 || sessions() != 0 {
		t.Fatalf("idle stop: exit %d, %d session file(s), want none", r.ExitCode, sessions())
	}
	if r := stop(false, failingReport); r.ExitCode != 2 {
		t.Fatalf("failing stop: exit %d, want a block", r.ExitCode)
	}
	if st, err := state.Load("s"); err != nil || st.Blocks != 1 {
		t.Fatalf("after a block: %+v %v", st, err)
	}
	if r := stop(true, passingReport); r.ExitCode != 0 {
		t.Fatalf("passing stop: exit %d", r.ExitCode)
	}
	if st, err := state.Load("s"); err != nil || st.Blocks != 0 {
		t.Fatalf("a pass after a block left %+v %v, want the count reset on disk", st, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "gates.log")); err != nil {
		t.Fatalf("the decision log: %v", err)
	}
}
