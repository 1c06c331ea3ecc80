package mcpserver

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
)

// The backend finds the project from the client's directory, applies the
// policy, and explains a key with its layer and lock.
func TestLocalLayers(t *testing.T) {
	dir := t.TempDir()
	policy := filepath.Join(dir, "policy.yaml")
	e := newEnv(t, "AGENTKIT_POLICY_FILE="+policy)
	e.write(t, policy, "lock:\n  rules.tier: full\n")
	proj := filepath.Join(dir, "shop")
	e.write(t, filepath.Join(proj, ".charter", "settings.yaml"), "worktrees.mode: off\n")
	deep := filepath.Join(proj, "a", "b")
	e.write(t, filepath.Join(deep, ".keep"), "")
	l := e.backend()
	ctx := context.Background()

	ex, err := l.Explain(ctx, deep, "worktrees.mode")
	if err != nil {
		t.Fatal(err)
	}
	if ex.Value != "off" || ex.Layer != "project" || ex.Locked {
		t.Errorf("worktrees.mode: %+v", ex)
	}
	ex, err = l.Explain(ctx, deep, "rules.tier")
	if err != nil {
		t.Fatal(err)
	}
	if ex.Value != "full" || ex.Layer != "policy" || !ex.Locked || ex.Origin != policy || ex.Policy == "" {
		t.Errorf("rules.tier: %+v", ex)
	}
	st, err := l.Status(ctx, deep)
	if err != nil {
		t.Fatal(err)
	}
	if st.Project == nil || st.Project.Dir != proj || st.Policy == nil || st.Policy.Path != policy {
		t.Errorf("status project %+v policy %+v", st.Project, st.Policy)
	}
	// Outside the project, or with --no-project, the project layer is gone.
	if ex, err := l.Explain(ctx, e.wd, "worktrees.mode"); err != nil || ex.Layer != "default" {
		t.Errorf("outside the project: %+v %v", ex, err)
	}
	l.NoProject = true
	if st, err := l.Status(ctx, deep); err != nil || st.Project != nil {
		t.Errorf("--no-project: %+v %v", st.Project, err)
	}
	// A malformed policy fails the read, with its code.
	e.write(t, policy, "lok:\n  rules.tier: full\n")
	if _, err := l.Get(ctx, deep, "rules.tier"); errcode.Of(err) != core.CodeMalformedPolicy {
		t.Errorf("malformed policy: %v", err)
	}
}
