package gates

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentkit/charter/core/fsys"
)

// Concurrent stops of one session count one by one: with max_blocks 2,
// exactly two of six block. Every hook reaches its decision together (the
// gates of all six end at once), as six agents' stops would.
func TestHookConcurrentStopsBlockAtMostMaxBlocks(t *testing.T) {
	state, _ := newState(t)
	const n = 6
	var arrived sync.WaitGroup
	arrived.Add(n)
	results := make([]HookResult, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			results[i] = HookMain(context.Background(), strings.NewReader(stopJSON("s", true)), state,
				func(StopInput) (HookOptions, error) {
					return HookOptions{MaxBlocks: 2, Run: func(context.Context, Config) Report {
						arrived.Done()
						arrived.Wait()
						return failingReport
					}}, nil
				})
		})
	}
	wg.Wait()
	blocks := 0
	for _, r := range results {
		if r.ExitCode == 2 {
			blocks++
		}
	}
	if blocks != 2 {
		t.Fatalf("%d of %d concurrent stops blocked, want exactly max_blocks 2", blocks, n)
	}
	if st, err := state.Load("s"); err != nil || st.Blocks != 2 {
		t.Fatalf("state %+v %v, want 2 blocks", st, err)
	}
}

// A signal that ends the gates is charter's own failure: exit 1, never a
// block, and the count is left alone.
func TestHookSignalNeverBlocks(t *testing.T) {
	for _, kind := range []HookKind{ClaudeStop, CodexStop} {
		state, _ := newState(t)
		ctx, cancel := context.WithCancel(context.Background())
		res := RunHook(ctx, kind, strings.NewReader(stopJSON("s", false)), state, func(StopInput) (HookOptions, error) {
			return HookOptions{Run: func(context.Context, Config) Report {
				cancel() // SIGTERM arrives while the gates run
				return Report{OK: false, Gates: []Result{{Name: Tests, Status: StatusFailed, Message: "cancelled; its process group was killed"}}}
			}}, nil
		})
		expect(t, res, 1, DecisionError)
		if !strings.Contains(res.Stderr, "interrupted") || res.Stdout != "" {
			t.Fatalf("%s: %+v", kind, res)
		}
		if st, _ := state.Load("s"); st.Blocks != 0 {
			t.Fatalf("%s: a signal counted as a block: %+v", kind, st)
		}
	}
}

// Temporary files that killed hooks left in gates-sessions are removed once
// they are old enough to be nobody's; a fresh one may be a live hook's.
func TestFileStateRemovesStaleTemps(t *testing.T) {
	state, dir := newState(t)
	sessions := filepath.Join(dir, "gates-sessions")
	if err := os.MkdirAll(sessions, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	plant := func(name string, mtime time.Time) string {
		p := filepath.Join(sessions, name)
		if err := os.WriteFile(p, []byte(`{"session":"x"`), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, mtime, mtime)
		return p
	}
	other := plant(".charter-tmp-0123456789abcdef0123456789abcdef.json-1234abcd", old)
	own := plant(fsys.TempName(filepath.Base(state.sessionPath("s")), 0x99999999), old)
	fresh := plant(".charter-tmp-fedcba9876543210fedcba9876543210.json-5678abcd", time.Now())
	users := plant(".0123456789abcdef0123456789abcdef.json.tmp-1234abcd", old) // not charter's pattern
	h := &hooker{t: t, state: state, report: failingReport}
	h.stop("s", false)
	for _, p := range []string{other, own} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("stale %s was kept", filepath.Base(p))
		}
	}
	if _, err := os.Lstat(fresh); err != nil {
		t.Errorf("a fresh temporary file (a live hook's) was removed: %v", err)
	}
	if _, err := os.Lstat(users); err != nil {
		t.Errorf("a file that only looks like a temporary one was removed: %v", err)
	}
}
