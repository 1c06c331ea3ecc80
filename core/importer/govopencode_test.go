package importer

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// What apply wrote for Qwen Code, OpenCode and Kilo Code (its goldens)
// comes back as the rules and servers it was written from: import is
// lossless for charter's own shapes.
func TestImportReadsApplyGoldensBack(t *testing.T) {
	want := []string{"deny shell:git push --force", "deny read:.env", "ask shell:git push", "allow shell:go", "allow write:src/**"}
	for _, c := range []struct{ golden, format string }{
		{"project-qwen", "qwen"}, {"user-qwen", "qwen"}, {"project-opencode", "opencode"},
		{"user-opencode", "opencode"}, {"project-kilo", "opencode"}, {"user-kilo", "opencode"},
	} {
		t.Run(c.golden, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "apply", "testdata", "gov", c.golden+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			_, body, _ := strings.Cut(string(data), "==\n")
			items, err := ReadGovernance([]GovFile{{Path: "f.json", Format: c.format, Perms: true, MCP: true, Data: []byte(body)}})
			if err != nil {
				t.Fatal(err)
			}
			var rules []string
			servers := map[string]string{}
			for _, it := range items {
				switch {
				case it.State != StateImported:
				case it.What == WhatRule:
					rules = append(rules, it.Verdict+" "+it.Rule)
				case it.Def != nil:
					servers[it.Server] = strings.Join(append([]string{it.Def.Command, it.Def.URL}, it.Def.Args...), " ") + " " + it.Def.Env["NOTES_TOKEN"] + it.Def.Headers["Authorization"]
				}
			}
			for _, w := range want {
				if !slices.Contains(rules, w) {
					t.Errorf("%s not imported; imported: %q", w, rules)
				}
			}
			if servers["notes"] != "notes-mcp  --stdio ${NOTES_TOKEN}" || servers["github"] != " https://mcp.example.com/github Bearer ${GITHUB_TOKEN}" {
				t.Errorf("servers imported as %q", servers)
			}
		})
	}
}

// The user's own entries: a pattern that is not a prefix, a whole tool,
// every path, are reported with why, never imported as something wider;
// webfetch, one action for every URL, is web:*.
func TestOpenCodeRulesSkipped(t *testing.T) {
	data := `{"permission": {"*": "ask", "webfetch": "deny", "okserver_*": "deny", "bash": {"*": "ask", "git log": "allow", "rm *": "maybe"}, "read": {"*": "allow", "./secrets/**": "deny"}}}`
	items, err := ReadGovernance([]GovFile{{Path: "opencode.json", Format: "opencode", Perms: true, Data: []byte(data)}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, it := range items {
		got[it.Native] = it.State + " " + it.Verdict + " " + it.Rule
		if it.State == StateSkipped && it.Reason == "" {
			t.Errorf("%s skipped without a reason", it.Native)
		}
	}
	for native, want := range map[string]string{
		"permission.*: ask":                     "skipped ask ",
		"permission.webfetch: deny":             "imported deny web:*",
		"permission.okserver_*: deny":           "imported deny mcp:okserver",
		`permission.bash: "*": ask`:             "skipped ask ",
		`permission.bash: "git log": allow`:     "skipped allow ",
		`permission.bash: "rm *": maybe`:        "skipped maybe ",
		`permission.read: "*": allow`:           "skipped allow ",
		`permission.read: "./secrets/**": deny`: "imported deny read:secrets/**",
	} {
		if got[native] != want {
			t.Errorf("%s: %q, want %q", native, got[native], want)
		}
	}
}

func TestFromQwen(t *testing.T) {
	for native, rule := range map[string]string{
		"Bash(git push --force)": "shell:git push --force", "Bash(npm run *)": "shell:npm run", "Bash(*)": "",
		"WebFetch(pkg.go.dev)": "web:pkg.go.dev", "Read(/src/**)": "read:src/**", "Read(//etc/passwd)": "",
		"Edit(src/**)": "write:src/**", "WebFetch": "web:*", "mcp__github__create_issue": "mcp:github/create_issue",
	} {
		if got, why := fromNative("qwen", native); got != rule || (got == "") == (why == "") {
			t.Errorf("%s: %q (why %q), want %q", native, got, why, rule)
		}
	}
}
