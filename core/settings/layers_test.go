package settings

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/project"
)

// layeredStore is a profile scope under the default root, with a project
// at <tmp>/proj and the policy given.
func layeredStore(t *testing.T, policy string) (*Store, *core.Project, string) {
	t.Helper()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	for _, d := range []string{home, filepath.Join(proj, ".charter")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sys := coretest.New(t, coretest.Home(home), coretest.Env("CLAUDE_CONFIG_DIR="+filepath.Join(home, ".agent-switch", "claude", "w", "config"),
		PolicyVar+"="+filepath.Join(dir, "policy.yaml"))).Sys
	sc, err := profile.ResolveScope(sys, nil)
	if err != nil || sc.Kind != core.ScopeProfile {
		t.Fatalf("scope %+v %v", sc, err)
	}
	project, err := project.Find(sys, &proj, false)
	if err != nil {
		t.Fatal(err)
	}
	var pol *Policy
	if policy != "" {
		if pol, err = ParsePolicy(filepath.Join(dir, "policy.yaml"), []byte(policy)); err != nil {
			t.Fatal(err)
		}
	}
	return Open(sys, sc, project, pol), project, dir
}

func TestLayersOrderAndOrigins(t *testing.T) {
	st, project, dir := layeredStore(t, "minimum:\n  gates.coverage.min: 80\n")
	global := filepath.Join(dir, "home", ".agentkit", "charter", FileName)
	coretest.WriteFile(t, global, "rules.tier: minimal\ngates.coverage.min: 95\n")
	coretest.WriteFile(t, st.ScopePath(), "rules.tier: balanced\n")
	coretest.WriteFile(t, project.SettingsPath(), "rules.tier: full\ngates.coverage.min: 90\n")
	coretest.WriteFile(t, project.LocalPath(), "gates.coverage.min: 10\n")
	snap, err := st.Read()
	if err != nil {
		t.Fatal(err)
	}
	if snap.Values["rules.tier"] != "full" || snap.Origins["rules.tier"] != project.SettingsPath() {
		t.Errorf("rules.tier %v from %s", snap.Values["rules.tier"], snap.Origins["rules.tier"])
	}
	// The local 10 is raised to the minimum, and the policy is its origin.
	if snap.Values["gates.coverage.min"] != Dec("80") || snap.Origins["gates.coverage.min"] != st.Policy().Path {
		t.Errorf("coverage %v from %s", snap.Values["gates.coverage.min"], snap.Origins["gates.coverage.min"])
	}
	names := []string{}
	for _, l := range snap.Layers {
		names = append(names, l.Name)
		if l.Name != LayerDefault && l.Name != LayerPolicy && (l.Path == nil || !l.Exists || l.ETag == "") {
			t.Errorf("layer %+v", l)
		}
	}
	if want := LayerNames(); len(names) != len(want) || names[0] != want[0] || names[5] != want[5] {
		t.Errorf("layers %v, want %v", names, want)
	}
	for origin, want := range map[string]string{global: LayerGlobal, st.ScopePath(): LayerScope, project.LocalPath(): LayerProjectLocal, OriginDefault: LayerDefault, st.Policy().Path: LayerPolicy} {
		if got := st.LayerOf(origin); got != want {
			t.Errorf("LayerOf(%s) = %q, want %q", origin, got, want)
		}
	}
	if lk := snap.Locks["gates.coverage.min"]; lk.Locked || lk.Minimum != Dec("80") || lk.Reason == "" {
		t.Errorf("lock %+v", lk)
	}
}

func TestWriteTargetsLayer(t *testing.T) {
	st, project, _ := layeredStore(t, "lock:\n  rules.tier: full\n")
	local, err := st.Target(LayerProjectLocal)
	if err != nil {
		t.Fatal(err)
	}
	snap := mustSet(t, local, "worktrees.mode", "off")
	if snap.Origins["worktrees.mode"] != project.LocalPath() {
		t.Errorf("origin %s", snap.Origins["worktrees.mode"])
	}
	if fi, err := os.Stat(project.LocalPath()); err != nil || fi.Mode().Perm() != ProjectFileMode {
		t.Errorf("local file %v %v", fi, err)
	}
	if data, err := os.ReadFile(filepath.Join(project.Dir, ".charter", ".gitignore")); string(data) != "settings.local.yaml\n" {
		t.Errorf(".gitignore %q %v", data, err)
	}
	if _, err := os.Stat(st.ScopePath()); !os.IsNotExist(err) {
		t.Errorf("scope file written: %v", err)
	}
	// The policy refuses at this layer too, before anything is touched.
	_, err = local.Write(Update{Set: map[string]any{"rules.tier": "minimal"}})
	var pe *PolicyError
	if !errors.As(err, &pe) || pe.Key != "rules.tier" || core.ErrorCode(err) != core.CodeLockedByPolicy {
		t.Errorf("locked write: %v", err)
	}
	// A layer's own ETag is its If-Match; another layer's change is no conflict.
	before, err := local.Read()
	if err != nil {
		t.Fatal(err)
	}
	mustSet(t, st, "agent.autonomy", "on") // the scope file
	tag := before.Layers[4].ETag
	if _, err := local.Write(Update{Set: map[string]any{"worktrees.mode": "on"}, IfMatch: tag}); err != nil {
		t.Errorf("write with the layer's ETag after a scope change: %v", err)
	}
	var stale *StaleError
	if _, err := local.Write(Update{Set: map[string]any{"worktrees.mode": "off"}, IfMatch: tag}); !errors.As(err, &stale) {
		t.Errorf("stale layer ETag: %v", err)
	}
	if _, err := New(st.sys, st.scope).Target(LayerProject); core.ErrorCode(err) != core.CodeUsage {
		t.Errorf("project layer without a project: %v", err)
	}
	if _, err := st.Target("policy"); core.ErrorCode(err) != core.CodeInvalidRequest {
		t.Errorf("policy layer: %v", err)
	}
}

func TestCheckEdit(t *testing.T) {
	st, _, _ := layeredStore(t, "lock:\n  rules.tier: full\nmaximum:\n  cost.budget.daily: 50\n")
	old := []byte("rules.tier: minimal\n")
	// A value already beyond the policy may stay while other keys change.
	if err := st.CheckEdit(old, []byte("rules.tier: minimal\nworktrees.mode: off\n")); err != nil {
		t.Errorf("untouched value beyond the policy: %v", err)
	}
	if err := st.CheckEdit(old, []byte("rules.tier: balanced\n")); core.ErrorCode(err) != core.CodeLockedByPolicy {
		t.Errorf("changed locked value: %v", err)
	}
	if err := st.CheckEdit(nil, []byte("cost.budget.daily: 51\n")); core.ErrorCode(err) != core.CodeLockedByPolicy {
		t.Errorf("value above the maximum: %v", err)
	}
}

// A committed store reads defaults, the project's file and the policy:
// nothing of the user's own files reaches what apply --project renders.
func TestCommittedLayers(t *testing.T) {
	st, project, dir := layeredStore(t, "minimum:\n  gates.coverage.min: 80\n")
	coretest.WriteFile(t, filepath.Join(dir, "home", ".agentkit", "charter", FileName), "worktrees.mode: off\ngates.tests.command: global\n")
	coretest.WriteFile(t, st.ScopePath(), "rules.tier: minimal\ngates.tests.command: mine\n")
	coretest.WriteFile(t, project.SettingsPath(), "gates.lint.command: make lint\n")
	coretest.WriteFile(t, project.LocalPath(), "rules.tier: full\ngates.coverage.min: 95\n")
	snap, err := st.Committed().Read()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"worktrees.mode": "ask", "rules.tier": "balanced", KeyGatesTestsCommand: "",
		KeyGatesLintCommand: "make lint", KeyGatesCoverageMin: Dec("80")}
	for k, v := range want {
		if snap.Values[k] != v {
			t.Errorf("%s = %v (from %s), want %v", k, snap.Values[k], snap.Origins[k], v)
		}
	}
	if got := st.Committed().Files(); len(got) != 1 || got[0] != project.SettingsPath() {
		t.Errorf("files read %v, want the project's alone", got)
	}
	// The full store still sees them all.
	if snap, err = st.Read(); err != nil || snap.Values["rules.tier"] != "full" {
		t.Errorf("full store: rules.tier %v, %v", snap.Values["rules.tier"], err)
	}
}
