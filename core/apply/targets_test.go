package apply

import (
	"context"
	"testing"
)

// Files names the same files Plan plans.
func TestFilesMatchPlan(t *testing.T) {
	m := newMachine(t)
	m.mkdir(t, ".claude")
	m.mkdir(t, ".codex")
	for _, agents := range [][]string{nil, {"codex"}, {"all"}} {
		fs, err := Files(m.sys, agents)
		if err != nil {
			t.Fatal(err)
		}
		ts, err := Plan(context.Background(), m.sys, m.snap, agents)
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) != len(ts) {
			t.Fatalf("%v: %d files, %d targets", agents, len(fs), len(ts))
		}
		for i := range fs {
			if fs[i].Agent != ts[i].Agent || fs[i].Path != ts[i].Path {
				t.Errorf("%v: file %+v, target %s %s", agents, fs[i], ts[i].Agent, ts[i].Path)
			}
		}
	}
	if _, err := Files(m.sys, []string{"nope"}); err == nil {
		t.Error("an unknown agent is no error")
	}
}
