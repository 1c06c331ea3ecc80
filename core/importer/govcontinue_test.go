package importer

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/settings"
)

// Import reads back what apply writes for Cline (its JSON mcpServers) and
// Continue (config.yaml's list of servers, ${{ secrets.VAR }}, headers
// under requestOptions; permissions.yaml's Bash patterns).
func TestImportClineContinue(t *testing.T) {
	want := []settings.Server{
		{Name: "notes", Command: "notes-mcp", Args: []string{"--stdio"}, Env: map[string]string{"NOTES_TOKEN": "${NOTES_TOKEN}"}},
		{Name: "github", URL: "https://mcp.example.com/github", Headers: map[string]string{"Authorization": "Bearer ${GITHUB_TOKEN}"}},
	}
	plain := settings.Server{Name: "plain", Command: "p-mcp", Args: []string{}}
	cline, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"plain": apply.NativeServer("cline", plain)}})
	var yaml strings.Builder
	yaml.WriteString("name: mine\nmodels: []\nmcpServers:\n")
	for _, s := range want {
		b, _ := json.Marshal(apply.NativeServer("continue", s))
		yaml.WriteString("  - " + string(b) + "\n")
	}
	files := []GovFile{
		{Path: "cline_mcp_settings.json", Format: "cline", MCP: true, Data: cline},
		{Path: "config.yaml", Format: "continue", MCP: true, Data: []byte(yaml.String())},
		{Path: "permissions.yaml", Format: "continue", Perms: true,
			Data: []byte("# mine\nallow: [\"Bash(go test)\", Read]\nask:\n  - \"Bash(git push*)\"\nexclude: [\"Bash(git push --force*)\"]\n")},
	}
	items, err := ReadGovernance(files)
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]*settings.Server{}
	var rules []string
	for _, it := range items {
		switch {
		case it.Def != nil:
			servers[it.Server] = it.Def
		case it.Rule != "":
			rules = append(rules, it.Verdict+" "+it.Rule)
		case it.Native != "allow: Read":
			t.Errorf("%s: %s (%s), want imported", it.Native, it.State, it.Reason)
		}
	}
	for _, s := range append(want, plain) {
		g := servers[s.Name]
		if g == nil || g.Command != s.Command || g.URL != s.URL || g.Env["NOTES_TOKEN"] != s.Env["NOTES_TOKEN"] || g.Headers["Authorization"] != s.Headers["Authorization"] {
			t.Errorf("server %s imported as %+v, want %+v", s.Name, g, s)
		}
	}
	slices.Sort(rules)
	if w := []string{"allow shell:go test", "ask shell:git push", "deny shell:git push --force"}; !slices.Equal(rules, w) {
		t.Errorf("rules %v, want %v", rules, w)
	}
}
