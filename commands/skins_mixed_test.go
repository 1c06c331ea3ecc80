package commands

import (
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// Variables that name profiles of two providers are one warning in every
// skin: ping in the CLI, the HTTP API and MCP carries the same
// mixedProfiles and trust, and MCP's status is that ping with more (its
// apply part says to name the agent, not the whole status failing).
func TestMixedProfilesInEverySkin(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	s := newSkins(t, root, coretest.Env(
		"CLAUDE_CONFIG_DIR=$HOME/.agent-switch/claude/a/config",
		"CODEX_HOME=$HOME/.agent-switch/codex/w/config"))
	cli := s.cli("ping")
	mixed, ok := cli["mixedProfiles"].([]any)
	if !ok || len(mixed) != 2 {
		t.Fatalf("the CLI's ping names no mixed profiles: %v", cli)
	}
	code, web := s.http("GET", "/api/v1/ping", "")
	if code != 200 {
		t.Fatalf("HTTP %d: %v", code, web)
	}
	sameDoc(t, "the HTTP API's ping", web, cli)
	sameDoc(t, "MCP's ping", s.mcp("ping", map[string]any{}), cli)
	status := s.mcp("status", map[string]any{})
	for _, key := range []string{"mixedProfiles", "trust", "profile"} {
		sameDoc(t, "MCP status's "+key, status[key], cli[key])
	}
	if e, _ := status["apply"].(map[string]any)["error"].(map[string]any); e["code"] != "usage" {
		t.Errorf("MCP status's apply does not say the agent must be named: %v", status["apply"])
	}
}
