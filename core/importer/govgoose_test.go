package importer

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/settings"
)

// Import reads back what apply writes for Goose: extensions in
// config.yaml, env_keys as env NAME: ${NAME}, a remote one's uri as url;
// Goose's builtin extensions are not servers.
func TestImportGoose(t *testing.T) {
	want := []settings.Server{
		{Name: "notes", Command: "notes-mcp", Args: []string{"--stdio"}, Env: map[string]string{"NOTES_TOKEN": "${NOTES_TOKEN}", "MODE": "fast"}},
		{Name: "far", URL: "https://far.example/mcp", Headers: map[string]string{"X-Team": "shop"}},
	}
	var yaml strings.Builder
	yaml.WriteString("# mine\nextensions:\n  developer:\n    type: builtin\n    enabled: true\n")
	for _, s := range want {
		b, _ := json.Marshal(apply.NativeServer("goose", s))
		yaml.WriteString("  " + s.Name + ": " + string(b) + "\n")
	}
	items, err := ReadGovernance([]GovFile{{Path: "config.yaml", Format: "goose", MCP: true, Data: []byte(yaml.String())}})
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]*settings.Server{}
	for _, it := range items {
		if it.Def == nil {
			t.Errorf("%s: %s (%s), want imported", it.Native, it.State, it.Reason)
			continue
		}
		servers[it.Server] = it.Def
	}
	for _, s := range want {
		g := servers[s.Name]
		if g == nil || g.Command != s.Command || g.URL != s.URL || g.Env["NOTES_TOKEN"] != s.Env["NOTES_TOKEN"] || g.Env["MODE"] != s.Env["MODE"] || g.Headers["X-Team"] != s.Headers["X-Team"] {
			t.Errorf("server %s imported as %+v, want %+v", s.Name, g, s)
		}
	}
	if len(servers) != len(want) {
		t.Errorf("imported %d servers, want %d (no builtin)", len(servers), len(want))
	}
}
