package apply

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/settings"
)

// The goldens of Qwen Code, OpenCode and Kilo Code: the same permissions
// and servers set as TestGovGoldens, into native files that hold the
// user's own keys, entries and order.
var govNativeMore = map[string]map[string]string{
	LevelUser: {
		".qwen/settings.json":            "{\n  \"model\": {\"name\": \"qwen3-coder\"},\n  \"permissions\": {\"allow\": [\"Bash(npm test)\"]},\n  \"mcpServers\": {\"mine\": {\"command\": \"my-mcp\"}}\n}\n",
		".config/opencode/opencode.json": "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  // what the agent may do\n  \"permission\": {\n    \"bash\": {\"*\": \"ask\", \"git *\": \"allow\"}, /* mine */\n    \"webfetch\": \"ask\" // slow\n  },\n  \"mcp\": {\"mine\": {\"type\": \"local\", \"command\": [\"my-mcp\"]}}\n}\n",
		".config/kilo/kilo.json":         "{\"model\": \"kilo/x\", \"permission\": {\"read\": {\"*\": \"allow\"}}}\n",
	},
	LevelProject: {
		".qwen/settings.json": "{\"permissions\": {\"deny\": [\"Read(secrets/**)\"]}}\n",
		"opencode.json":       "{\n\t\"permission\": {\n\t\t\"*\": \"ask\",\n\t\t\"bash\": {\n\t\t\t\"*\": \"ask\",\n\t\t\t\"go *\": \"allow\"\n\t\t}\n\t}\n}\n",
		"kilo.json":           "{\n  \"mcp\": {\n    // the team's\n    \"team\": {\"type\": \"remote\", \"url\": \"https://team.example.com/mcp\"}, // shared\n  },\n}\n",
	},
}

var govMoreAgents = []string{"qwen", "opencode", "kilo"}

func TestGovGoldensMore(t *testing.T) { govGoldenLevels(t, govMoreAgents, govNativeMore) }

// OpenCode takes the last matching pattern: a user's own entry for a
// pattern charter denies, or a broader allow after charter's, must not
// come after charter's deny. Apply moves charter's entries to the end.
func TestOpenCodeDenyStaysLast(t *testing.T) {
	sys, snap, proj, base := govSetup(t, LevelProject)
	file := filepath.Join(base, "opencode.json")
	coretest.WriteFile(t, file, "{\"permission\": {\"bash\": {\"git push --force *\": \"allow\", \"git *\": \"allow\"}}}\n")
	req := Request{Agents: []string{"opencode"}, Project: proj}
	full, err := PlanAll(context.Background(), sys, snap, req)
	if err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, full)
	got, _ := os.ReadFile(file)
	want := "{\"permission\": {\"bash\": {\"git *\": \"allow\", \"go *\": \"allow\", \"git push *\": \"ask\", \"git push --force *\": \"deny\"}, \"edit\": {\"src/**\": \"allow\"}, \"read\": {\".env\": \"deny\"}}, \"mcp\": {\"github\": {\"type\": \"remote\", \"url\": \"https://mcp.example.com/github\", \"headers\": {\"Authorization\": \"Bearer {env:GITHUB_TOKEN}\"}}, \"notes\": {\"type\": \"local\", \"command\": [\"notes-mcp\", \"--stdio\"], \"environment\": {\"NOTES_TOKEN\": \"{env:NOTES_TOKEN}\"}}}}\n"
	if string(got) != want {
		t.Errorf("opencode.json is\n%s\nwant charter's entries last, the deny after the ask\n%s", got, want)
	}
	// The user adds a broad allow after charter's deny: apply puts the
	// deny back at the end.
	coretest.WriteFile(t, file, strings.Replace(string(got), `"git push --force *": "deny"}`, `"git push --force *": "deny", "*": "allow"}`, 1))
	full, err = PlanAll(context.Background(), sys, snap, req)
	if err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, full)
	got, _ = os.ReadFile(file)
	if !strings.Contains(string(got), `"*": "allow", "go *": "allow", "git push *": "ask", "git push --force *": "deny"}`) {
		t.Errorf("after a broad allow was added last, opencode.json is\n%s\nwant charter's ask and deny after it", got)
	}
	// The user turns the policy's deny into an allow by hand: apply puts
	// the deny back.
	coretest.WriteFile(t, file, strings.Replace(string(got), `"git push --force *": "deny"`, `"git push --force *": "allow"`, 1))
	full, err = PlanAll(context.Background(), sys, snap, req)
	if err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, full)
	if got, _ = os.ReadFile(file); !strings.Contains(string(got), `"git push --force *": "deny"}`) {
		t.Errorf("after the deny was loosened by hand, opencode.json is\n%s\nwant the deny back, last", got)
	}
}

// Refused, the file named, nothing written: a comment never closed, and
// a permission that is one action for everything.
func TestOpenCodeRefuses(t *testing.T) {
	for name, tc := range map[string]struct{ data, says string }{
		"unclosed":   {"{\n  /* mine\n  \"model\": \"x\"\n}\n", "line 2: a /* comment is never closed: end it with */"},
		"one-action": {"{\"permission\": {\"bash\": \"ask\"}}\n", `permission.bash is one action for everything ("ask"): write it as {"*": "ask"}`},
	} {
		t.Run(name, func(t *testing.T) {
			sys, snap, proj, base := govSetup(t, LevelProject)
			file := filepath.Join(base, "opencode.json")
			coretest.WriteFile(t, file, tc.data)
			full, err := PlanAll(context.Background(), sys, snap, Request{Agents: []string{"opencode"}, Project: proj})
			if err == nil {
				_, err = RunAll(context.Background(), sys, full, false)
			}
			var je *MCPJSONError
			if err == nil || !errors.As(err, &je) || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "opencode.json") {
				t.Errorf("apply: %v, want a refusal naming opencode.json and saying %q", err, tc.says)
			}
			if got, _ := os.ReadFile(file); string(got) != tc.data {
				t.Errorf("opencode.json changed:\n%s", got)
			}
		})
	}
}

// Each rule kind in Qwen Code's and OpenCode's shapes, or why not.
func TestNativeRuleQwenOpenCode(t *testing.T) {
	for _, c := range []struct{ format, rule, keys, entry string }{
		{"qwen", "shell:git push --force", "permissions.deny", "Bash(git push --force)"},
		{"qwen", "read:~/.ssh/**", "permissions.deny", "Read(~/.ssh/**)"},
		{"qwen", "write:src/**", "permissions.deny", "Edit(src/**)"},
		{"qwen", "web:example.com", "permissions.deny", "WebFetch(example.com)"},
		{"qwen", "mcp:github/create_issue", "permissions.deny", "mcp__github__create_issue"},
		{"opencode", "shell:git push --force", "permission.bash", "git push --force *"},
		{"opencode", "read:.env", "permission.read", ".env"},
		{"opencode", "write:src/**", "permission.edit", "src/**"},
		{"opencode", "mcp:github", "permission", "github_*"},
		{"opencode", "mcp:github/create_issue", "permission", "github_create_issue"},
		{"opencode", "web:example.com", "", ""},
		{"opencode", "web:*", "permission", "webfetch"},
		{"qwen", "web:*", "permissions.deny", "WebFetch"},
		{"claude", "web:*", "permissions.deny", "WebFetch"},
		{"claude", "web:*.example.com", "permissions.deny", "WebFetch(domain:*.example.com)"},
		{"cursor", "web:*", "", ""},
		{"gemini", "web:*", "tools.exclude", "web_fetch"},
		{"opencode", "read:~/.ssh/**", "", ""},
	} {
		r, err := settings.ParseRule(c.rule)
		if err != nil {
			t.Fatal(err)
		}
		keys, entry, ok := NativeRule(c.format, "deny", r)
		if strings.Join(keys, ".") != c.keys || entry != c.entry || ok != (c.entry != "") {
			t.Errorf("%s %s: %v %q %v, want %s %q", c.format, c.rule, keys, entry, ok, c.keys, c.entry)
		}
		if !ok && !strings.Contains(unsupportedWhy(agents.Agent{Display: "OpenCode"}, c.format, r), "OpenCode") {
			t.Errorf("%s %s: no reason", c.format, c.rule)
		}
	}
}
