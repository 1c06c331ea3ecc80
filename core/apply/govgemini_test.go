package apply

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
)

// geminiScope is a machine with no policy whose scope layer holds layer;
// it returns what reads the settings again and the policy file's path.
func geminiScope(t *testing.T, layer string) (*core.System, func() *settings.Snapshot, string, string) {
	t.Helper()
	cm := coretest.New(t)
	sc, err := profile.ResolveScope(cm.Sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(sc.Path, "settings.yaml")
	coretest.WriteFile(t, file, layer)
	read := func() *settings.Snapshot {
		snap, err := settings.Open(cm.Sys, sc, nil, nil).Read()
		if err != nil {
			t.Fatal(err)
		}
		return snap
	}
	gemini, _ := cm.Sys.AgentTable.Lookup("gemini")
	dir, err := profile.AgentDir(cm.Sys, gemini)
	if err != nil {
		t.Fatal(err)
	}
	return cm.Sys, read, file, filepath.Join(dir, "policies", "charter.toml")
}

// A shell deny of the policy is held in Gemini's policy file; a hand
// edit that loosens it is undone, and the report says so.
func TestGeminiPolicyFileEditedIsRestored(t *testing.T) {
	sys, snap, _, base := govSetup(t, LevelUser)
	govRun(t, sys, snap, nil)
	policy := filepath.Join(base, ".gemini", "policies", "charter.toml")
	edit(t, policy, `decision = "deny"`, `decision = "allow"`)
	full := govRun(t, sys, snap, nil)
	holds(t, policy, "commandPrefix = \"git push --force\"\ndecision = \"deny\"\npriority = 999\n")
	if k := full.Kept(); len(k) != 1 || k[0].Path != policy || !strings.Contains(k[0].Reason, "restored") {
		t.Fatalf("kept %+v", k)
	}
}

// A rule taken out of the settings leaves the file; the last one takes
// the file with it, and the record forgets it.
func TestGeminiPolicyFileFollowsTheSettings(t *testing.T) {
	sys, read, layer, policy := geminiScope(t, "permissions:\n  deny: [\"shell:rm -rf\", \"shell:git push --force\"]\n  ask: [\"shell:git push\"]\n")
	govRun(t, sys, read(), nil)
	holds(t, policy, `commandPrefix = "rm -rf"`, `commandPrefix = "git push --force"`, `decision = "ask_user"`)
	coretest.WriteFile(t, layer, "permissions:\n  deny: [\"shell:rm -rf\"]\n")
	govRun(t, sys, read(), nil)
	data, _ := os.ReadFile(policy)
	if strings.Contains(string(data), "git push") || !strings.Contains(string(data), `commandPrefix = "rm -rf"`) {
		t.Fatalf("after the settings dropped two rules the file is\n%s", data)
	}
	coretest.WriteFile(t, layer, "permissions:\n  allow: [\"shell:go\"]\n")
	full := govRun(t, sys, read(), nil)
	if _, err := os.Stat(policy); err == nil {
		t.Fatal("the policy file stayed with no rule left for it")
	}
	if rec, _ := os.ReadFile(filepath.Join(read().Scope.Path, GovStateFile)); strings.Contains(string(rec), "charter.toml") {
		t.Fatalf("the record still names the policy file:\n%s", rec)
	}
	if len(full.Kept()) != 0 {
		t.Fatalf("kept %+v", full.Kept())
	}
}

// Not locked: a hand edit makes the file the user's. charter leaves it,
// says why, and uninstall leaves it too.
func TestGeminiPolicyFileEditedByHandIsTheUsers(t *testing.T) {
	sys, read, _, policy := geminiScope(t, "permissions:\n  deny: [\"shell:rm -rf\"]\n")
	govRun(t, sys, read(), nil)
	edit(t, policy, `"rm -rf"`, `"rm -rf /"`)
	full := govRun(t, sys, read(), nil)
	holds(t, policy, `commandPrefix = "rm -rf /"`)
	if k := full.Kept(); len(k) != 1 || !strings.Contains(k[0].Reason, "yours now") {
		t.Fatalf("kept %+v", k)
	}
	u, err := PlanUninstall(context.Background(), sys, nil, filepath.Join(read().Scope.Path, "state", "projection.json"), false)
	if err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, u)
	holds(t, policy, `commandPrefix = "rm -rf /"`)
}

// A prefix with quotes or backslashes is a valid TOML string.
func TestGeminiPolicyRuleQuotes(t *testing.T) {
	got := geminiPolicyRule("deny", settings.Rule{Kind: settings.RuleShell, Arg: `echo "a\b"`})
	if !strings.Contains(got, `commandPrefix = "echo \"a\\b\""`+"\n") {
		t.Fatalf("got\n%s", got)
	}
	if geminiPolicyRule("allow", settings.Rule{Kind: settings.RuleShell, Arg: "go"}) != "" || geminiPolicyRule("deny", settings.Rule{Kind: settings.RuleRead, Arg: ".env"}) != "" {
		t.Fatal("an allow or a read rule went into the policy file")
	}
}

// permissions check says what apply does: the user-level policy file, and
// at project level why the deny is not enforced.
func TestGeminiPolicyPlace(t *testing.T) {
	cm := coretest.New(t)
	gemini, _ := cm.Sys.AgentTable.Lookup("gemini")
	claude, _ := cm.Sys.AgentTable.Lookup("claude")
	push := settings.Rule{Kind: settings.RuleShell, Arg: "git push --force"}
	file, native, why, ok := GeminiPolicyPlace(gemini.At(LevelUser), "deny", push)
	if !ok || why != "" || file != "policies/charter.toml" || !strings.Contains(native, `commandPrefix = "git push --force", decision = "deny"`) {
		t.Fatalf("user: %q %q %q %v", file, native, why, ok)
	}
	if _, _, why, ok := GeminiPolicyPlace(gemini.At(LevelProject), "deny", push); !ok || !strings.Contains(why, "gemini-cli#18186") {
		t.Fatalf("project: %q %v", why, ok)
	}
	if _, _, _, ok := GeminiPolicyPlace(claude.At(LevelUser), "deny", push); ok {
		t.Fatal("a Claude rule went to Gemini's policy engine")
	}
}
