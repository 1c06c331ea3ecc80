package apply

import (
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/settings"
)

// withTimeout is snap with gates.timeout set to d (canonical text).
func withTimeout(snap *settings.Snapshot, d string) *settings.Snapshot {
	s := *snap
	s.Values = maps.Clone(snap.Values)
	s.Values[settings.KeyGatesTimeout] = d
	return &s
}

// charterTimeout reads the timeout of charter's entry in settings.json.
func charterTimeout(t *testing.T, data string) float64 {
	t.Helper()
	var doc struct {
		Hooks struct {
			Stop []struct {
				Hooks []struct {
					Command string
					Timeout float64
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(data), &doc); err != nil {
		t.Fatal(err)
	}
	for _, g := range doc.Hooks.Stop {
		for _, h := range g.Hooks {
			if gates.IsCharterHook(h.Command) {
				return h.Timeout
			}
		}
	}
	t.Fatalf("no charter entry in\n%s", data)
	return 0
}

// The entry's timeout follows gates.timeout: a changed value makes the
// file outdated, and apply rewrites that number only.
func TestHookTimeoutFollowsGatesTimeout(t *testing.T) {
	m := newMachine(t)
	mine := `{"model": "opus", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify.sh", "timeout": 30}]}]}}`
	m.write(t, ".claude/settings.json", mine)
	apply := func(snap *settings.Snapshot) []Result {
		t.Helper()
		ts, err := Plan(context.Background(), m.sys, snap, []string{"claude"})
		if err != nil {
			t.Fatal(err)
		}
		rs, err := Run(context.Background(), m.sys, ts, false)
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	apply(m.snap)
	first := m.read(t, ".claude/settings.json")
	if got := charterTimeout(t, first); got != 1920 {
		t.Fatalf("timeout %v with the default 10m:\n%s", got, first)
	}

	longer := withTimeout(m.snap, "20m0s")
	ts, err := Plan(context.Background(), m.sys, longer, []string{"claude"})
	if err != nil {
		t.Fatal(err)
	}
	st := Status(ts)
	if st[1].Path != m.path(".claude/settings.json") || st[1].State != StateOutdated ||
		!strings.Contains(st[1].Diff, `-{"model": "opus", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify.sh", "timeout": 30}]}, {"hooks": [{"type": "command", "command": `) ||
		!strings.Contains(st[1].Diff, `"timeout": 3720}]}]}}`) {
		t.Fatalf("status %+v", st[1])
	}
	if rs := apply(longer); rs[1].State != StateWritten {
		t.Fatalf("run %+v", rs)
	}
	second := m.read(t, ".claude/settings.json")
	if want := strings.Replace(first, `"timeout": 1920`, `"timeout": 3720`, 1); second != want {
		t.Fatalf("got\n%s\nwant\n%s", second, want)
	}
	if rs := apply(longer); rs[1].State != StateCurrent {
		t.Fatalf("second run %+v", rs)
	}
}
