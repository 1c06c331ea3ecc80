package importer

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/settings"
)

// Import reads back what apply writes for the documentation-only agents'
// server shapes: Windsurf's serverUrl and ${env:VAR}, Amp's flat
// amp.mcpServers key, Crush's mcp member; a round trip gives the server.
func TestImportDocAgentServers(t *testing.T) {
	want := []settings.Server{
		{Name: "notes", Command: "notes-mcp", Args: []string{"--stdio"}, Env: map[string]string{"NOTES_TOKEN": "${NOTES_TOKEN}"}},
		{Name: "github", URL: "https://mcp.example.com/github", Headers: map[string]string{"Authorization": "Bearer ${GITHUB_TOKEN}"}},
	}
	for _, format := range []string{"windsurf", "roo", "plain", "amp", "crush"} {
		servers := map[string]any{}
		for _, s := range want {
			servers[s.Name] = apply.NativeServer(format, s)
		}
		doc := map[string]any{apply.MCPMembers(format)[0]: servers, "theirs": 1}
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		items, err := ReadGovernance([]GovFile{{Path: "f.json", Format: format, MCP: true, Data: data}})
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		got := map[string]*settings.Server{}
		for _, it := range items {
			if it.State != StateImported || it.Def == nil {
				t.Errorf("%s: %s is %s (%s), want imported", format, it.Native, it.State, it.Reason)
				continue
			}
			got[it.Server] = it.Def
		}
		for _, s := range want {
			g := got[s.Name]
			if g == nil || g.Command != s.Command || g.URL != s.URL || len(g.Env) != len(s.Env) || len(g.Headers) != len(s.Headers) ||
				g.Env["NOTES_TOKEN"] != s.Env["NOTES_TOKEN"] || g.Headers["Authorization"] != s.Headers["Authorization"] {
				t.Errorf("%s: server %s imported as %+v, want %+v", format, s.Name, g, s)
			}
		}
	}
}

// Factory Droid's command lists come back as shell rules with their
// verdicts; the file's other keys are not rules and are not reported.
func TestImportDroidCommandLists(t *testing.T) {
	data := `{"model": "opus", "commandBlocklist": ["git push --force"], "commandDenylist": ["rm -rf"], "commandAllowlist": ["ls"]}`
	items, err := ReadGovernance([]GovFile{{Path: "settings.json", Format: "droid", Perms: true, Data: []byte(data)}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range items {
		got = append(got, it.State+" "+it.Verdict+" "+it.Rule+" ("+it.Native+")")
	}
	want := []string{"imported deny shell:git push --force (commandBlocklist: git push --force)",
		"imported ask shell:rm -rf (commandDenylist: rm -rf)", "imported allow shell:ls (commandAllowlist: ls)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("imported\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// VS Code's mcp.json, Zed's and Gemini CLI's settings.json are JSONC: their comments
// and trailing commas are read as the agent reads them; an unclosed
// comment is refused with the file and line.
func TestImportJSONCServers(t *testing.T) {
	for format, data := range map[string]string{
		"vscode": "{\n  // mine\n  \"servers\": {\n    \"notes\": {\"type\": \"stdio\", \"command\": \"notes-mcp\"}, /* x */\n  },\n}\n",
		"zed":    "// Zed settings\n{\n  \"context_servers\": {\n    \"notes\": {\"command\": \"notes-mcp\", \"args\": []},\n  },\n}\n",
		"gemini": "// my Gemini\n{\n  \"mcpServers\": {\n    /* mine */ \"notes\": {\"command\": \"notes-mcp\"} // local\n  }\n}\n",
	} {
		items, err := ReadGovernance([]GovFile{{Path: "f.json", Format: format, MCP: true, Data: []byte(data)}})
		if err != nil || len(items) != 1 || items[0].State != StateImported || items[0].Def == nil || items[0].Def.Command != "notes-mcp" {
			t.Errorf("%s: %+v, %v; want notes imported", format, items, err)
		}
	}
	_, err := ReadGovernance([]GovFile{{Path: "mcp.json", Format: "vscode", MCP: true, Data: []byte("{\n /* open\n}")}})
	if err == nil || !strings.Contains(err.Error(), "mcp.json line 2: a /* comment is never closed") {
		t.Errorf("unclosed comment: %v", err)
	}
}

// Gemini CLI's settings.json with comments: its shell rules are read too.
func TestImportGeminiCommentedRules(t *testing.T) {
	data := "{\n  // no force pushes\n  \"tools\": {\"exclude\": [\"run_shell_command(git push --force)\"]} /* mine */\n}\n"
	items, err := ReadGovernance([]GovFile{{Path: "settings.json", Format: "gemini", Perms: true, Data: []byte(data)}})
	if err != nil || len(items) != 1 || items[0].State != StateImported || items[0].Rule != "shell:git push --force" || items[0].Verdict != "deny" {
		t.Errorf("%+v, %v; want the deny shell:git push --force imported", items, err)
	}
}
