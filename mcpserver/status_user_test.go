package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/settings"
)

// The status of the user-level files compares them with what `charter
// apply` writes there: the settings without the project's layers. Inside a
// project that sets other values, a user-level file just applied is current.
func TestStatusUserLevelLeavesProjectOut(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t, "AGENTKIT_POLICY_FILE="+filepath.Join(dir, "policy.yaml"))
	if err := os.MkdirAll(filepath.Join(e.home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(dir, "shop")
	e.write(t, filepath.Join(proj, ".charter", "settings.yaml"), "rules:\n  tier: full\n")
	snap, err := settings.Open(e.sys, e.scope, nil, nil).Read()
	if err != nil {
		t.Fatal(err)
	}
	targets, err := apply.Plan(context.Background(), e.sys, snap, []string{"claude"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := apply.Run(context.Background(), e.sys, targets, false); err != nil {
		t.Fatal(err)
	}
	st, err := e.backend().Status(context.Background(), proj)
	if err != nil {
		t.Fatal(err)
	}
	if st.Project == nil || len(st.Apply.Targets) == 0 {
		t.Fatalf("status: project %+v targets %+v", st.Project, st.Apply.Targets)
	}
	for _, r := range st.Apply.Targets {
		if r.State != apply.StateCurrent {
			t.Errorf("%s: %s, want current", r.Path, r.State)
		}
	}
}
