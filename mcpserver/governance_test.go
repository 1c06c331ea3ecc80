package mcpserver

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/session"
)

// TestGovernanceTools: the three tools answer with the CLI's documents for
// the client's directory, the policy's deny locked and the server outside
// mcp.allowed not projected; a malformed action is the CLI's usage error.
func TestGovernanceTools(t *testing.T) {
	dir := t.TempDir()
	policy := filepath.Join(dir, "policy.yaml")
	e := newEnv(t, "AGENTKIT_POLICY_FILE="+policy)
	e.write(t, policy, "permissions:\n  deny: [\"shell:git push --force\"]\nmcp:\n  allowed: [notes]\n")
	proj := filepath.Join(dir, "shop")
	e.write(t, filepath.Join(proj, ".charter", "settings.yaml"), "permissions:\n  deny: [\"read:.env\"]\n  allow: [\"shell:go test\"]\n")
	e.write(t, e.settingsFile(), "mcp:\n  servers:\n    notes: {command: notes-mcp}\n    other: {command: other-mcp}\n")
	c := newClient(nil)
	c.AddRoots(&mcp.Root{URI: fileURI(proj)})
	cs := connect(t, e.server(), c, "2025-06-18")
	sess := session.New(e.sys, session.Options{Scope: &e.scope, From: proj})

	var perms session.Permissions
	structured(t, call(t, cs, "permissions_list", map[string]any{}), &perms)
	want, err := sess.Permissions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "permissions_list", perms, want)
	if len(perms.Rules) != 3 || perms.Rules[0].Rule != "shell:git push --force" || !perms.Rules[0].Locked || perms.Rules[0].Origin != policy || perms.Rules[0].Layer != "policy" {
		t.Errorf("permissions_list rules %+v, want the policy's deny first, locked, with its file", perms.Rules)
	}

	var chk session.PermCheck
	structured(t, call(t, cs, "permissions_check", map[string]any{"action": "shell:git push --force origin main", "agent": "claude"}), &chk)
	if chk.Verdict != "deny" || chk.Rule == nil || !chk.Rule.Locked || chk.Agent == nil || len(chk.Agent.Levels) != 2 || !chk.Agent.Levels[0].Expressed {
		t.Errorf("permissions_check: %+v", chk)
	}
	wantChk, err := sess.CheckPermission(context.Background(), "shell:git push --force origin main", "claude")
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "permissions_check", chk, wantChk)
	structured(t, call(t, cs, "permissions_check", map[string]any{"action": "shell:go test ./..."}), &chk)
	if chk.Verdict != "allow" || chk.Rule.Layer != "project" {
		t.Errorf("permissions_check go test: %+v", chk)
	}
	if res := call(t, cs, "permissions_check", map[string]any{"action": "exec:ls"}); !res.IsError {
		t.Errorf("an unknown kind is no error: %+v", res.StructuredContent)
	}

	var servers ServerList
	structured(t, call(t, cs, "mcp_servers_list", map[string]any{}), &servers)
	if len(servers.Servers) != 2 {
		t.Fatalf("mcp_servers_list: %+v", servers)
	}
	for _, r := range servers.Servers {
		if (r.Name == "notes") != r.Projected || (r.Name == "other" && r.Reason != "not_allowed") {
			t.Errorf("server %s: projected %v reason %q", r.Name, r.Projected, r.Reason)
		}
	}
}

func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s:\n got %s\nwant %s (the CLI's document)", what, g, w)
	}
}
