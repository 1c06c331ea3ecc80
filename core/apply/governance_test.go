package apply

import (
	"testing"

	"github.com/agentkit/charter/core/settings"
)

// govFor plans the edits for one agent format from rules and servers.
func govApply(t *testing.T, format string, old string, perms []settings.PermEntry, servers []settings.Server) string {
	t.Helper()
	var steps []jsonStep
	lists := map[string][]string{}
	var order [][]string
	drop := map[string][]string{}
	for _, e := range perms {
		r, err := settings.ParseRule(e.Rule)
		if err != nil {
			t.Fatal(err)
		}
		keys, entry, ok := NativeRule(format, e.Verdict, r)
		if !ok {
			continue
		}
		k := keys[0] + "." + keys[1]
		if _, seen := lists[k]; !seen {
			order = append(order, keys)
		}
		lists[k] = append(lists[k], entry)
		if e.Locked && e.Verdict == "deny" {
			_, ent, _ := NativeRule(format, "allow", r)
			drop["permissions.allow"] = append(drop["permissions.allow"], ent)
		}
	}
	for _, keys := range order {
		k := keys[0] + "." + keys[1]
		steps = append(steps, listStep(keys, lists[k], drop[k]))
	}
	if _, ok := lists["permissions.allow"]; !ok && len(drop["permissions.allow"]) > 0 {
		steps = append(steps, listStep([]string{"permissions", "allow"}, nil, drop["permissions.allow"]))
	}
	if len(servers) > 0 {
		want := map[string]any{}
		for _, s := range servers {
			want[s.Name] = NativeServer(format, s)
		}
		steps = append(steps, membersStep(mcpMembers(format), want, nil))
	}
	data := []byte(old)
	for _, s := range steps {
		var err error
		if data, err = editJSON(data, false, s); err != nil {
			t.Fatal(err)
		}
	}
	return string(data)
}

var (
	govPerms = []settings.PermEntry{
		{Verdict: "deny", Rule: "shell:git push --force", Locked: true},
		{Verdict: "deny", Rule: "read:.env", Locked: true},
		{Verdict: "allow", Rule: "shell:go test"},
	}
	govServers = []settings.Server{
		{Name: "github", URL: "https://mcp.example.com/github", Headers: map[string]string{"Authorization": "Bearer ${GITHUB_TOKEN}"}},
		{Name: "notes", Command: "notes-mcp", Args: []string{"--stdio"}},
	}
)

// The user's keys, entries, order and spacing stay byte for byte; a
// native allow of a denied command, added by hand, is taken out again.
func TestClaudeSettingsKeepTheUsersBytes(t *testing.T) {
	old := `{
  "model": "opus",
  "permissions": {
    "allow": ["Bash(npm run lint)", "Bash(git push --force:*)"],
    "defaultMode": "acceptEdits"
  },
  "env": {"FOO": "1"}
}
`
	want := `{
  "model": "opus",
  "permissions": {
    "allow": ["Bash(npm run lint)", "Bash(go test:*)"],
    "defaultMode": "acceptEdits",
    "deny": [
      "Bash(git push --force:*)",
      "Read(.env)"
    ]
  },
  "env": {"FOO": "1"}
}
`
	if got := govApply(t, "claude", old, govPerms, nil); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if again := govApply(t, "claude", want, govPerms, nil); again != want {
		t.Fatalf("a second apply changed the file:\n%s", again)
	}
}

func TestMCPFilesKeepTheUsersServers(t *testing.T) {
	old := "{\n\t\"mcpServers\": {\n\t\t\"mine\": {\"command\": \"my-mcp\"}\n\t},\n\t\"other\": true\n}\n"
	want := "{\n\t\"mcpServers\": {\n\t\t\"mine\": {\"command\": \"my-mcp\"},\n" +
		"\t\t\"github\": {\n\t\t\t\"type\": \"http\",\n\t\t\t\"url\": \"https://mcp.example.com/github\",\n\t\t\t\"headers\": {\n\t\t\t\t\"Authorization\": \"Bearer ${GITHUB_TOKEN}\"\n\t\t\t}\n\t\t},\n" +
		"\t\t\"notes\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": \"notes-mcp\",\n\t\t\t\"args\": [\n\t\t\t\t\"--stdio\"\n\t\t\t]\n\t\t}\n\t},\n\t\"other\": true\n}\n"
	if got := govApply(t, "mcpServers", old, nil, govServers); got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
	// Cursor and VS Code spell the variable their own way; VS Code keeps
	// its servers under "servers".
	got := govApply(t, "vscode", "", nil, govServers[:1])
	if want := "{\n  \"servers\": {\n    \"github\": {\n      \"type\": \"http\",\n      \"url\": \"https://mcp.example.com/github\",\n      \"headers\": {\n        \"Authorization\": \"Bearer ${env:GITHUB_TOKEN}\"\n      }\n    }\n  }\n}\n"; got != want {
		t.Fatalf("vscode:\n%s", got)
	}
}

func TestGeminiGetsShellRulesOnly(t *testing.T) {
	got := govApply(t, "gemini", `{"theme": "dark"}`, govPerms, nil)
	want := `{"theme": "dark", "tools": {"exclude": ["run_shell_command(git push --force)"], "allowed": ["run_shell_command(go test)"]}}`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if _, _, ok := NativeRule("gemini", "deny", settings.Rule{Kind: settings.RuleRead, Arg: ".env"}); ok {
		t.Fatal("gemini expressed a read rule it has no place for")
	}
}

// A file charter cannot parse is an error naming the line; nothing is
// made of it.
func TestGovRefusesAMalformedFile(t *testing.T) {
	_, err := editJSON([]byte("{\n  \"permissions\": [\n"), false, listStep([]string{"permissions", "deny"}, []string{"Read(.env)"}, nil))
	if err == nil {
		t.Fatal("no error")
	}
	_, err = editJSON([]byte(`{"permissions": []}`), false, listStep([]string{"permissions", "deny"}, []string{"Read(.env)"}, nil))
	if err == nil || err.Error() != `line 1: the member at ["permissions"] is not a JSON object (fix the file by hand; charter will not overwrite it)` {
		t.Fatalf("%v", err)
	}
}
