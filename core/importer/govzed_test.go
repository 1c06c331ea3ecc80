package importer

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/settings"
)

// Zed's settings.json (with its comments): the patterns in apply's forms
// become shell:, write: and web: rules, an MCP tool's default an mcp:
// rule; a write rule met in every file tool is one rule; other patterns
// and other tools are skipped with why.
func TestImportZedToolPermissions(t *testing.T) {
	data := `// Zed settings
{
  "agent": {
    "tool_permissions": {
      "default": "confirm",
      "tools": {
        "terminal": {
          "always_deny": [{"pattern": "^git\\s+push\\s+--force(\\s|$)"}], // the policy's
          "always_confirm": [{"pattern": "^git\\s+push(\\s|$)"}],
          "always_allow": [{"pattern": "^go(\\s|$)", "case_sensitive": true}, {"pattern": "^cargo\\s+(build|test)"}],
        },
        "edit_file": {"always_deny": [{"pattern": "(?:^|/)\\.env$"}, {"pattern": "\\.env"}]},
        "delete_path": {"always_confirm": [{"pattern": "(?:^~/|/)\\.ssh(?:/.*)?$"}], "always_deny": [{"pattern": "(?:^|/)\\.env$"}]},
        "fetch": {
          "always_deny": [{"pattern": "^(?:https?://)?(?:[^/?#@\\\\]*@)?[^/?#@\\\\:]+\\.evil\\.example\\.?(?::[0-9]*)?(?:[/?#\\\\]|$)"}],
          "always_allow": [{"pattern": "docs\\.rs"}, {"pattern": ".*"}],
        },
        "mcp:github:delete_repo": {"default": "deny"},
        "mcp:notes:search": {"default": "confirm", "always_allow": [{"pattern": ".*"}]},
        "web_search": {"always_deny": [{"pattern": "x"}]},
      },
    },
  },
}
`
	items, err := ReadGovernance([]GovFile{{Path: "settings.json", Format: "zed", Perms: true, Data: []byte(data)}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range items {
		got = append(got, it.State+" "+it.Verdict+" "+it.Rule)
	}
	want := []string{
		"imported deny write:.env", "imported ask write:~/.ssh/**",
		"skipped deny ", "skipped deny ",
		"imported deny web:*.evil.example", "skipped allow ", "imported allow web:*",
		"imported deny mcp:github/delete_repo", "imported ask mcp:notes/search", "skipped allow ",
		"imported deny shell:git push --force", "imported ask shell:git push", "imported allow shell:go", "skipped allow ",
		"skipped deny ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("imported\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	reasons := map[int]string{2: "the same rule as agent.tool_permissions.tools.delete_path.always_deny", 3: "write: rule cannot hold", 5: "web: rule cannot hold",
		9: "no pattern for an MCP tool", 13: "command prefix", 14: "terminal, file, fetch and MCP"}
	for i, r := range reasons {
		if i < len(items) && !strings.Contains(items[i].Reason, r) {
			t.Errorf("item %d (%s): reason %q, want %q", i, items[i].Native, items[i].Reason, r)
		}
	}
	for _, bad := range []string{`{"agent": {"tool_permissions": {"tools": {"terminal": {"always_deny": "rm"}}}}}`, `{"agent": {"tool_permissions": {"tools": {"mcp:a:b": {"default": 1}}}}}`} {
		if _, err := ReadGovernance([]GovFile{{Path: "settings.json", Format: "zed", Perms: true, Data: []byte(bad)}}); err == nil || !strings.Contains(err.Error(), "settings.json") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// Every rule apply writes for Zed reads back as the same rule: apply's
// forms are lossless, hostile characters included.
func TestImportZedRoundTrip(t *testing.T) {
	rules := map[string][]string{
		"deny":  {"shell:git push --force", "write:.env", "write:~/.ssh/**", "write:a/**/b?(c)|d+.go", "web:evil.example", "web:*.a|b(c).io", "web:*", "mcp:github/delete_repo"},
		"ask":   {"shell:make a.b", "write:**/*.pem", "web:*.internal.example", "mcp:notes/write"},
		"allow": {"shell:go", "web:pkg.go.dev", "mcp:notes/search"},
	}
	tools := map[string]map[string]any{}
	var want []string
	for _, v := range []string{"deny", "ask", "allow"} {
		for _, rule := range rules[v] {
			r, err := settings.ParseRule(rule)
			if err != nil {
				t.Fatal(err)
			}
			keys, entry, ok := apply.NativeRule("zed", v, r)
			if !ok || len(keys) < 4 {
				t.Fatalf("%s %s: %v %q %v", v, rule, keys, entry, ok)
			}
			tool := tools[keys[3]]
			if tool == nil {
				tool = map[string]any{}
				tools[keys[3]] = tool
			}
			if entry == "default" {
				tool["default"] = map[string]string{"deny": "deny", "ask": "confirm", "allow": "allow"}[v]
			} else {
				var e any
				_ = json.Unmarshal([]byte(entry), &e)
				l, _ := tool[keys[4]].([]any)
				tool[keys[4]] = append(l, e)
			}
			want = append(want, v+" "+rule)
		}
	}
	data, _ := json.Marshal(map[string]any{"agent": map[string]any{"tool_permissions": map[string]any{"tools": tools}}})
	items, err := ReadGovernance([]GovFile{{Path: "settings.json", Format: "zed", Perms: true, Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range items {
		if it.State != StateImported {
			t.Errorf("%s: %s (%s)", it.Native, it.State, it.Reason)
		}
		got = append(got, it.Verdict+" "+it.Rule)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("read back\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
