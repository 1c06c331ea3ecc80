package apply

import (
	"context"
	"os"
	"testing"

	"github.com/agentkit/charter/core"
)

// A project target is the repository's path: a link out of the project is
// refused by Plan (for a dry run and --check too, in a plan for Run alone
// too) and by Run when it appears after the plan, and the outside file
// keeps its bytes.
func TestProjectTargetsConfined(t *testing.T) {
	m := newMachine(t)
	proj := newProject(t, m, "repo")
	m.write(t, "outside.md", "my own\n")
	if err := os.Symlink("../outside.md", m.path("repo/CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	for _, runOnly := range []bool{false, true} {
		_, err := PlanRequest(context.Background(), m.sys, m.snap, Request{Project: proj, RunOnly: runOnly})
		if core.ErrorCode(err) != core.CodeOutsideProject {
			t.Fatalf("plan (run only %v): %v", runOnly, err)
		}
	}
	os.Remove(m.path("repo/CLAUDE.md"))
	for _, runOnly := range []bool{false, true} {
		ts, err := PlanRequest(context.Background(), m.sys, m.snap, Request{Project: proj, RunOnly: runOnly})
		if err != nil {
			t.Fatal(err)
		}
		os.Symlink("../outside.md", m.path("repo/CLAUDE.md")) // after the plan
		if _, err := Run(context.Background(), m.sys, ts, false); core.ErrorCode(err) != core.CodeOutsideProject {
			t.Fatalf("run (run only %v): %v", runOnly, err)
		}
		if got := m.read(t, "outside.md"); got != "my own\n" {
			t.Fatalf("outside file written: %q", got)
		}
		os.Remove(m.path("repo/CLAUDE.md"))
	}
	// The user-level files still follow links out (dotfiles managers).
	m.mkdir(t, ".claude")
	os.Symlink("../outside.md", m.path(".claude/CLAUDE.md"))
	ts, err := Plan(context.Background(), m.sys, m.snap, []string{"claude"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), m.sys, ts, false); err != nil {
		t.Fatal(err)
	}
	if got := m.read(t, "outside.md"); got == "my own\n" {
		t.Error("a user-level link was not followed")
	}
}
