package session

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/importer"
)

// TestImportGovernanceCodex: Codex's [mcp_servers] tables, its bearer
// token variable and env headers as ${VAR} references, the keys charter
// has no place for as notes; a config.toml that is not TOML stops the
// import, naming it.
func TestImportGovernanceCodex(t *testing.T) {
	sys, home, _ := machine(t)
	config := filepath.Join(home, ".codex", "config.toml")
	writeFile(t, config, `model = "o3"   # mine

[mcp_servers.docs]
command = "docs-mcp"
args = ["--stdio"]
env = { DOCS_KEY = "AKIAABCDEFGHIJKLMNOP" }
startup_timeout_sec = 20

[mcp_servers.hub]
url = "https://hub.example.com/mcp"
bearer_token_env_var = "HUB_TOKEN"
env_http_headers = { "X-Team" = "TEAM_ID" }
`)
	res, err := New(sys, Options{}).importSources(context.Background(), ImportRequest{From: "codex"})
	if err != nil {
		t.Fatal(err)
	}
	got := govByNative(res.Governance)
	docs, hub := got["mcp_servers.docs"], got["mcp_servers.hub"]
	if docs.State != importer.StateImported || len(docs.Notes) != 2 || !strings.Contains(strings.Join(docs.Notes, "\n"), "startup_timeout_sec") ||
		!strings.Contains(strings.Join(docs.Notes, "\n"), "${DOCS_KEY}") {
		t.Errorf("docs: %+v", docs)
	}
	if hub.State != importer.StateImported || len(hub.Notes) != 0 {
		t.Errorf("hub: %+v", hub)
	}
	_, snap, err := New(sys, Options{}).Read()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]string{}
	for _, sv := range snap.Gov.Servers {
		byName[sv.Name] = sv.Env["DOCS_KEY"] + sv.Headers["Authorization"] + sv.Headers["X-Team"]
	}
	if byName["docs"] != "${DOCS_KEY}" || byName["hub"] != "Bearer ${HUB_TOKEN}${TEAM_ID}" {
		t.Errorf("servers read back: %v", byName)
	}

	writeFile(t, config, "[mcp_servers.docs\ncommand = 1\n")
	if _, err := New(sys, Options{}).importSources(context.Background(), ImportRequest{From: "codex"}); err == nil || !strings.Contains(err.Error(), config) {
		t.Errorf("a broken config.toml: %v", err)
	}
}

// TestImportGovernanceCursorCLI: Cursor CLI's cli.json permissions.
func TestImportGovernanceCursorCLI(t *testing.T) {
	sys, _, repo := machine(t)
	writeFile(t, filepath.Join(repo, ".cursor", "cli.json"), `{"permissions": {"deny": ["Shell(rm)", "Read(.env)", "Mcp(x:y)"], "allow": ["Write(src/**)"]}}`)
	res, err := New(sys, Options{}).importSources(context.Background(), ImportRequest{From: "cursor", Project: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"permissions.deny: Shell(rm)":      "imported shell:rm",
		"permissions.deny: Read(.env)":     "imported read:.env",
		"permissions.deny: Mcp(x:y)":       "skipped ",
		"permissions.allow: Write(src/**)": "imported write:src/**",
	}
	got := govByNative(res.Governance)
	for native, w := range want {
		if g := got[native]; g.State+" "+g.Rule != w {
			t.Errorf("%s: %+v, want %s", native, g, w)
		}
	}
}

// TestImportGovernanceClaudeUser: Claude's user-level servers come from
// ~/.claude.json, beside ~/.claude, where apply writes them.
func TestImportGovernanceClaudeUser(t *testing.T) {
	sys, home, _ := machine(t)
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), `{"permissions": {"ask": ["Bash(git push:*)"]}}`)
	writeFile(t, filepath.Join(home, ".claude.json"), `{"numStartups": 3, "mcpServers": {"notes": {"type": "stdio", "command": "notes-mcp", "args": []}}, "projects": {}}`)
	res, err := New(sys, Options{}).importSources(context.Background(), ImportRequest{From: "claude"})
	if err != nil {
		t.Fatal(err)
	}
	got := govByNative(res.Governance)
	if g := got["mcpServers.notes"]; g.State != importer.StateImported || g.File != filepath.Join(home, ".claude.json") {
		t.Errorf("notes: %+v (all: %+v)", g, res.Governance)
	}
	if g := got["permissions.ask: Bash(git push:*)"]; g.State != importer.StateImported || g.Rule != "shell:git push" {
		t.Errorf("ask: %+v", g)
	}
}
