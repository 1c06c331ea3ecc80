package doctor_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/doctor"
	"github.com/agentkit/charter/core/session"
)

// With the policy's mcp.allowed set, a server the user added by hand to an
// MCP file charter manages fails doctor, naming the agent, file and server;
// one the list names passes, and without the list nothing is checked.
func TestMCPAllowed(t *testing.T) {
	m := coretest.New(t)
	sys, home := m.Sys, m.Home
	for _, d := range []string{".claude", ".codex"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	repo := filepath.Join(filepath.Dir(home), "repo")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "settings.yaml"), "rules:\n  tier: full\n")
	mcpJSON := filepath.Join(repo, ".mcp.json")
	coretest.WriteFile(t, mcpJSON, `{"mcpServers":{"charter":{"command":"charter","args":["mcp"]},"mine":{"command":"mine"},"github":{"command":"gh"}}}`+"\n")
	run := func() (doctor.Report, []doctor.Check) {
		rep := runAll(env{Session: session.New(sys, session.Options{ProjectDir: &repo})})
		var lines []doctor.Check
		for _, c := range rep.Checks {
			if strings.HasPrefix(c.Name, "mcp-allowed") {
				lines = append(lines, c)
			}
		}
		return rep, lines
	}

	// No mcp.allowed: no line.
	if _, lines := run(); len(lines) != 0 {
		t.Errorf("a line without mcp.allowed: %+v", lines)
	}

	// mine is outside the list; github and charter's own entry are not.
	coretest.WriteFile(t, m.PolicyFile, "mcp:\n  allowed: [github, \"https://mcp.example.com/\"]\n")
	rep, lines := run()
	if len(lines) != 1 || rep.OK {
		t.Fatalf("one failure for mine, report failing: %+v (ok %v)", lines, rep.OK)
	}
	c := lines[0]
	if c.Name != "mcp-allowed:claude:project:mine" || c.Status != doctor.Fail ||
		c.Message != mcpJSON+` has the MCP server "mine", which the policy's mcp.allowed does not list: Claude Code still starts it` ||
		c.Fix != `remove "mine" from `+mcpJSON+`, or ask the administrator to add it to mcp.allowed` {
		t.Errorf("mine outside the list: %+v", c)
	}

	// Inside the list (by name, and a remote one by URL prefix): ok.
	coretest.WriteFile(t, mcpJSON, `{"mcpServers":{"github":{"command":"gh"},"remote":{"type":"http","url":"https://mcp.example.com/v1"}}}`+"\n")
	if rep, lines = run(); len(lines) != 1 || lines[0].Status != doctor.OK || !rep.OK {
		t.Errorf("servers the list names: %+v", lines)
	}

	// Codex's config.toml at user level: an entry outside fails.
	toml := filepath.Join(home, ".codex", "config.toml")
	coretest.WriteFile(t, toml, "model = \"o3\"\n\n[mcp_servers.scraper]\nurl = \"https://evil.example.com/\"\n")
	_, lines = run()
	if len(lines) != 1 || lines[0].Name != "mcp-allowed:codex:user:scraper" || lines[0].Status != doctor.Fail || !strings.Contains(lines[0].Message, toml) {
		t.Errorf("codex entry outside the list: %+v", lines)
	}

	// A file that does not parse: a warning naming it, not a crash.
	coretest.WriteFile(t, toml, "[mcp_servers\n")
	_, lines = run()
	if len(lines) != 1 || lines[0].Status != doctor.Warn || !strings.Contains(lines[0].Message, toml+" is not valid TOML") {
		t.Errorf("malformed config.toml: %+v", lines)
	}
}
