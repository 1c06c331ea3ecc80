package commands

import (
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// The settings documents are one per request in every skin: `settings
// list --json` is GET /api/v1/settings, `settings get KEY --json` is
// MCP's settings_get, and a PATCH answers the document a later list
// gives.
func TestSettingsSameInEverySkin(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	coretest.WriteFile(t, filepath.Join(root, "settings.yaml"), "rules:\n  tier: full\n")
	s := newSkins(t, root)

	status, web := s.http("GET", "/api/v1/settings", "")
	if status != 200 {
		t.Fatalf("HTTP %d: %v", status, web)
	}
	sameDoc(t, "GET /api/v1/settings", web, s.cli("settings", "list"))

	cli := s.cli("settings", "get", "rules.tier")
	if cli["value"] != "full" {
		t.Fatalf("settings get rules.tier: %v", cli)
	}
	sameDoc(t, "MCP settings_get", s.mcp("settings_get", map[string]any{"key": "rules.tier"}), cli)

	status, patched := s.http("PATCH", "/api/v1/settings", `{"set":{"rules.tier":"minimal"},"base":{"rules.tier":"full"}}`)
	if status != 200 {
		t.Fatalf("PATCH: HTTP %d: %v", status, patched)
	}
	sameDoc(t, "PATCH /api/v1/settings", patched, s.cli("settings", "list"))
	if got := s.cli("settings", "get", "rules.tier")["value"]; got != "minimal" {
		t.Errorf("after the PATCH rules.tier is %v", got)
	}
}
