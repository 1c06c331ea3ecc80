package apply

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/settings"
)

// The policy cuts the network (deny web:*); a layer denies one domain,
// which Codex cannot express.
const (
	netPolicy = "permissions:\n  deny: [\"web:*\", \"shell:git push --force\"]\n"
	netLayer  = "permissions:\n  deny: [\"web:example.com\"]\n"
)

// The user's own sandbox table: a comment, writable_roots over lines, at
// user level no network_access, in the project a true with its comment.
var netNative = map[string]map[string]string{
	LevelUser: {
		".codex/config.toml": "# my Codex\nsandbox_mode = \"workspace-write\"\n\n[sandbox_workspace_write]\n# my roots\nwritable_roots = [\n  \"/tmp/x\", # scratch\n]\nexclude_slash_tmp = false\n\n[profiles.deep]\nmodel = \"o3-pro\"\n",
	},
	LevelProject: {
		".codex/config.toml": "[sandbox_workspace_write]\nnetwork_access = true   # npm needs it\nwritable_roots = [\"/tmp/y\"]\n",
	},
}

func netSetup(t *testing.T, level, policy string, native map[string]string) (*core.System, *settings.Snapshot, *core.Project, string) {
	t.Helper()
	return layerSetup(t, level, policy, netLayer, native)
}

// Goldens of the sandbox line at both levels (Claude beside it: web:* as
// the bare WebFetch; Gemini: web_fetch in tools.exclude and its policy); the user's comments and keys stay, the user's true
// comes back on uninstall.
func TestGovGoldensCodexSandbox(t *testing.T) {
	agents := []string{"codex", "claude", "gemini"}
	for _, level := range []string{LevelUser, LevelProject} {
		t.Run(level, func(t *testing.T) {
			sys, snap, proj, base := netSetup(t, level, netPolicy, netNative[level])
			req := Request{Agents: agents, Project: proj}
			full, err := PlanAll(context.Background(), sys, snap, req)
			if err != nil {
				t.Fatal(err)
			}
			govRunFull(t, sys, full)
			for _, u := range full.Unsupported {
				if u.What == "deny web:*" && u.Agent != "gemini" { // Gemini's project gap: its golden shows it
					t.Errorf("deny web:* reported unsupported for %s: %s", u.Agent, u.Reason)
				}
			}
			// Goldens of their own name: the shared ones stay as they are.
			govRound(t, sys, snap, proj, base, "sandbox-"+level, req, full, agents, netNative[level])
		})
	}
}

// A user's own network_access = false is theirs: apply writes nothing,
// records nothing, and uninstall leaves it.
func TestCodexSandboxKeepsUsersFalse(t *testing.T) {
	const mine = "[sandbox_workspace_write]\nnetwork_access = false # mine\n"
	sys, snap, proj, base := netSetup(t, LevelUser, netPolicy, map[string]string{".codex/config.toml": mine})
	file := filepath.Join(base, ".codex", "config.toml")
	full, err := PlanAll(context.Background(), sys, snap, Request{Agents: []string{"codex"}, Project: proj})
	if err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, full)
	if got, _ := os.ReadFile(file); string(got) != mine {
		t.Errorf("config.toml changed:\n%s", got)
	}
	if rec, _ := os.ReadFile(filepath.Join(snap.Scope.Path, GovStateFile)); strings.Contains(string(rec), sandboxKey) {
		t.Errorf("the user's own line was recorded as charter's:\n%s", rec)
	}
	netUninstall(t, sys, snap, proj)
	if got, _ := os.ReadFile(file); string(got) != mine {
		t.Errorf("after uninstall config.toml is\n%s", got)
	}
}

// With no config.toml charter makes the table; a hand edit to true is put
// back to false by the next apply (the lock holds in the file); uninstall
// takes the file away again.
func TestCodexSandboxMadeRestoredRemoved(t *testing.T) {
	sys, snap, proj, base := netSetup(t, LevelUser, netPolicy, nil)
	file := filepath.Join(base, ".codex", "config.toml")
	apply := func() {
		t.Helper()
		full, err := PlanAll(context.Background(), sys, snap, Request{Agents: []string{"codex"}, Project: proj})
		if err != nil {
			t.Fatal(err)
		}
		govRunFull(t, sys, full)
	}
	apply()
	const made = "[sandbox_workspace_write]\nnetwork_access = false\n"
	if got, _ := os.ReadFile(file); string(got) != made {
		t.Fatalf("config.toml charter made:\n%s", got)
	}
	coretest.WriteFile(t, file, "[sandbox_workspace_write]\nnetwork_access = true\n")
	apply()
	if got, _ := os.ReadFile(file); string(got) != made {
		t.Fatalf("a hand edit loosened the policy's deny:\n%s", got)
	}
	netUninstall(t, sys, snap, proj)
	if data, err := os.ReadFile(file); !os.IsNotExist(err) {
		t.Errorf("after uninstall config.toml is still there (%v):\n%s", err, data)
	}
}

// A record is input: a recorded line to put back that is not one
// network_access line is never written.
func TestCodexSandboxPrevIsChecked(t *testing.T) {
	for line, want := range map[string]string{
		"network_access = true   # npm\n":                           "network_access = true   # npm\n",
		"network_access = true\n[mcp_servers.x]\ncommand = \"x\"\n": "",
		"writable_roots = []\n":                                     "",
		"network_access = true":                                     "",
	} {
		if got := validPrev(line); got != want {
			t.Errorf("%q: %q, want %q", line, got, want)
		}
	}
}

func netUninstall(t *testing.T, sys *core.System, snap *settings.Snapshot, proj *core.Project) {
	t.Helper()
	u, err := PlanUninstall(context.Background(), sys, proj, filepath.Join(snap.Scope.Path, "state", "projection.json"), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RunAll(context.Background(), sys, u, false); err != nil {
		t.Fatal(err)
	}
}

// A sandbox table written inline is not edited: the file stays, and a
// kept row says where to set the key.
func TestCodexSandboxInlineKept(t *testing.T) {
	const mine = "sandbox_workspace_write = { network_access = true }\n"
	sys, snap, proj, base := netSetup(t, LevelUser, netPolicy, map[string]string{".codex/config.toml": mine})
	full, err := PlanAll(context.Background(), sys, snap, Request{Agents: []string{"codex"}, Project: proj})
	if err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, full)
	if got, _ := os.ReadFile(filepath.Join(base, ".codex", "config.toml")); string(got) != mine {
		t.Errorf("config.toml changed:\n%s", got)
	}
	kept := full.Kept()
	if len(kept) != 1 || !strings.Contains(kept[0].Reason, "inline table") {
		t.Errorf("kept rows %+v, want one naming the inline table", kept)
	}
}
