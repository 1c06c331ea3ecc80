package apply

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/tomledit"
)

// reread reads the project's committed settings again after a test
// changed its file.
func reread(t *testing.T, sys *core.System, proj *core.Project) *settings.Snapshot {
	t.Helper()
	sc, err := profile.ResolveScope(sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	policy, err := settings.LoadPolicy(sys)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := settings.Open(sys, sc, proj, policy).Committed().Read()
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func edit(t *testing.T, path, from, to string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), from) {
		t.Fatalf("%s holds no %q: %v\n%s", path, from, err, data)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), from, to, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func holds(t *testing.T, path string, want ...string) {
	t.Helper()
	data, _ := os.ReadFile(path)
	for _, w := range want {
		if !strings.Contains(string(data), w) {
			t.Errorf("%s lost %q:\n%s", path, w, data)
		}
	}
}

// Remove: a project layer that empties the deny list (or never names it)
// removes nothing of the policy's: its denies are still projected.
func TestLockRemoveInALayerStillProjects(t *testing.T) {
	sys, _, proj, base := govSetup(t, LevelProject)
	if err := os.WriteFile(filepath.Join(base, ".charter", "settings.yaml"), []byte("permissions:\n  deny: []\n  ask: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	govRun(t, sys, reread(t, sys, proj), proj)
	holds(t, filepath.Join(base, ".claude/settings.json"), `"Bash(git push --force:*)"`, `"Read(.env)"`, `"Bash(git push:*)"`)
	holds(t, filepath.Join(base, ".codex/rules/charter.rules"), `decision = "forbidden"`)
	holds(t, filepath.Join(base, ".gemini/settings.json"), `"run_shell_command(git push --force)"`)
}

// Edit the native file: a policy deny taken out of the agent's file by
// hand is put back by the next apply.
func TestLockNativeDenyRemovedIsRestored(t *testing.T) {
	sys, snap, proj, base := govSetup(t, LevelProject)
	govRun(t, sys, snap, proj)
	edit(t, filepath.Join(base, ".claude/settings.json"), `, "Bash(git push --force:*)"`, "")
	edit(t, filepath.Join(base, ".gemini/settings.json"), `"exclude": ["run_shell_command(git push --force)"]`, `"exclude": []`)
	edit(t, filepath.Join(base, ".cursor/cli.json"), `"Read(.env)"`, "")
	govRun(t, sys, snap, proj)
	holds(t, filepath.Join(base, ".claude/settings.json"), `"Bash(git push --force:*)"`)
	holds(t, filepath.Join(base, ".gemini/settings.json"), `"run_shell_command(git push --force)"`)
	holds(t, filepath.Join(base, ".cursor/cli.json"), `"Read(.env)"`)
}

// Allow and ask in the native file: a hand-written allow or ask of a rule
// the policy denies is taken out by the next apply.
func TestLockNativeAllowOrAskIsTakenOut(t *testing.T) {
	sys, snap, proj, base := govSetup(t, LevelProject)
	govRun(t, sys, snap, proj)
	claude := filepath.Join(base, ".claude/settings.json")
	edit(t, claude, `"Bash(go:*)",`, `"Bash(go:*)", "Bash(git push --force:*)",`)
	edit(t, claude, `"Bash(git push:*)"`, `"Bash(git push:*)", "Read(.env)"`)
	edit(t, filepath.Join(base, ".gemini/settings.json"), `"allowed": [`, `"allowed": ["run_shell_command(git push --force)", `)
	edit(t, filepath.Join(base, ".cursor/cli.json"), `"Shell(ls)"`, `"Shell(ls)", "Read(.env)"`)
	govRun(t, sys, snap, proj)
	for path, gone := range map[string]string{
		claude: `"allow": [` + "\n" + `      "Bash(go:*)", "Bash(git push --force:*)"`,
		filepath.Join(base, ".gemini/settings.json"): `"allowed": ["run_shell_command(git push --force)"`,
		filepath.Join(base, ".cursor/cli.json"):      `"Shell(ls)", "Read(.env)"`,
	} {
		data, _ := os.ReadFile(path)
		if strings.Contains(string(data), gone) {
			t.Errorf("%s still allows a denied rule:\n%s", path, data)
		}
	}
	data, _ := os.ReadFile(claude)
	if strings.Count(string(data), `"Read(.env)"`) != 1 || strings.Count(string(data), `"Bash(git push --force:*)"`) != 1 {
		t.Errorf("the ask or allow of a denied rule stayed:\n%s", data)
	}
}

// Edit Codex's rules file: a hand edit that loosens the policy's rule is
// undone; the report says so.
func TestLockCodexRulesEditedAreRestored(t *testing.T) {
	sys, snap, proj, base := govSetup(t, LevelProject)
	govRun(t, sys, snap, proj)
	rules := filepath.Join(base, ".codex/rules/charter.rules")
	edit(t, rules, `decision = "forbidden"`, `decision = "allow"`)
	full := govRun(t, sys, snap, proj)
	holds(t, rules, `prefix_rule(pattern = ["git", "push", "--force"], decision = "forbidden")`)
	if k := full.Kept(); len(k) != 1 || !strings.Contains(k[0].Reason, "restored") {
		t.Fatalf("kept %+v", k)
	}
}

// A user's own server of the same name, or charter's server changed by
// hand, is theirs: kept, reported, and never taken out by uninstall.
func TestGovKeepsTheUsersServers(t *testing.T) {
	sys, snap, proj, base := govSetup(t, LevelProject)
	govRun(t, sys, snap, proj)
	cfg := filepath.Join(base, ".codex/config.toml")
	edit(t, cfg, `command = "notes-mcp"`, `command = "my-notes"`)
	full := govRun(t, sys, snap, proj)
	holds(t, cfg, `command = "my-notes"`)
	if k := full.Kept(); len(k) != 1 || k[0].What != "server notes" {
		t.Fatalf("kept %+v", k)
	}
	u, err := PlanUninstall(context.Background(), sys, proj, "", false)
	if err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, u)
	holds(t, cfg, "[mcp_servers.notes]\ncommand = \"my-notes\"", "[mcp_servers.team]")
	data, _ := os.ReadFile(cfg)
	if strings.Contains(string(data), "mcp_servers.github") {
		t.Errorf("charter's own server stayed after uninstall:\n%s", data)
	}
}

// A native file charter cannot parse fails the plan naming the file and
// line; nothing is written anywhere.
func TestGovRefusesFilesItCannotParse(t *testing.T) {
	for rel, line := range map[string]string{".codex/config.toml": "line 2", ".cursor/cli.json": "line 1"} {
		sys, snap, proj, base := govSetup(t, LevelProject)
		bad := map[string]string{".codex/config.toml": "model = \"o3\"\nbroken = \n", ".cursor/cli.json": "{\"permissions\": [}"}[rel]
		path := filepath.Join(base, filepath.FromSlash(rel))
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := PlanAll(context.Background(), sys, snap, Request{Agents: govAgents(), Project: proj})
		var te *tomledit.ParseError
		var je *MCPJSONError
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), line) || !(errors.As(err, &te) || errors.As(err, &je)) {
			t.Fatalf("%s: %v", rel, err)
		}
		for other, want := range govNative[LevelProject] {
			if got, _ := os.ReadFile(filepath.Join(base, filepath.FromSlash(other))); other != rel && string(got) != want {
				t.Errorf("%s was written though the plan failed", other)
			}
		}
		if _, err := os.Stat(filepath.Join(base, GovLockFile)); err == nil {
			t.Error("the record was written though the plan failed")
		}
	}
}

// A committed record is input: an entry naming a file or key charter
// never writes (package.json's scripts, a file out of the project) is
// ignored, by apply and by uninstall alike.
func TestGovRecordNamesOnlyCharterPlaces(t *testing.T) {
	sys, snap, proj, base := govSetup(t, LevelProject)
	pkg := "{\"scripts\": {\"test\": \"go test\"}, \"files\": [\"a\"]}\n"
	if err := os.WriteFile(filepath.Join(base, "package.json"), []byte(pkg), 0o644); err != nil {
		t.Fatal(err)
	}
	lock := `{"version":1,"entries":[
  {"path":"package.json","agent":"claude","key":"files","entry":"a"},
  {"path":".claude/settings.json","agent":"claude","key":"model","entry":"x"},
  {"path":"../../outside.json","agent":"claude","key":"permissions.deny","entry":"a"},
  {"path":".claude/settings.json","agent":"codex","key":"permissions.deny","entry":"Read(secrets/**)"}
]}
`
	if err := os.WriteFile(filepath.Join(base, GovLockFile), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	govRun(t, sys, snap, proj)
	holds(t, filepath.Join(base, ".claude/settings.json"), `"Read(secrets/**)"`)
	u, err := PlanUninstall(context.Background(), sys, proj, "", false)
	if err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, u)
	if got, _ := os.ReadFile(filepath.Join(base, "package.json")); string(got) != pkg {
		t.Errorf("package.json changed:\n%s", got)
	}
	holds(t, filepath.Join(base, ".claude/settings.json"), `"Read(secrets/**)"`)
}
