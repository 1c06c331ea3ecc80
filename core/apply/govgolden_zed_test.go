package apply

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
)

// Every rule kind Zed's tool_permissions can hold, and some it cannot: the
// policy's denies and asks, the layer's allows.
const (
	zedPolicy = `permissions:
  deny: ["shell:git push --force", "write:.env", "web:evil.example", "mcp:github/delete_repo", "read:.env", "mcp:github"]
  ask: ["write:~/.ssh/**", "web:*.internal.example", "mcp:notes/write"]
`
	zedLayer = `permissions:
  allow: ["shell:go", "web:pkg.go.dev", "mcp:notes/search", "write:src/**"]
`
	// The user's own settings: comments, trailing commas, their own
	// terminal and fetch patterns and an MCP tool's default.
	zedNative = "// Zed settings\n{\n  \"ui_font_size\": 16, // big\n  \"agent\": {\n    \"tool_permissions\": {\n      \"default\": \"confirm\",\n      \"tools\": {\n        \"terminal\": {\n          // mine\n          \"always_allow\": [{\"pattern\": \"^cargo\\\\s+test\"}],\n        },\n        \"fetch\": {\"always_allow\": [{\"pattern\": \"docs\\\\.rs\"}]}, /* mine too */\n        \"mcp:notes:list\": {\"default\": \"allow\"},\n      },\n    },\n  },\n}\n"
)

// zedSetup is a machine with zedPolicy, zedLayer and the user's Zed
// settings; file is that settings.json.
func zedSetup(t *testing.T) (sys *core.System, snap *settings.Snapshot, home, file string) {
	t.Helper()
	cm := coretest.New(t)
	coretest.WriteFile(t, cm.PolicyFile, zedPolicy)
	sc, err := profile.ResolveScope(cm.Sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	coretest.WriteFile(t, filepath.Join(sc.Path, "settings.yaml"), zedLayer)
	file = filepath.Join(cm.Home, ".config", "zed", "settings.json")
	coretest.WriteFile(t, file, zedNative)
	policy, err := settings.LoadPolicy(cm.Sys)
	if err != nil {
		t.Fatal(err)
	}
	if snap, err = settings.Open(cm.Sys, sc, nil, policy).Read(); err != nil {
		t.Fatal(err)
	}
	return cm.Sys, snap, cm.Home, file
}

func zedApply(t *testing.T, sys *core.System, snap *settings.Snapshot) *Full {
	t.Helper()
	full, err := PlanAll(context.Background(), sys, snap, Request{Agents: []string{"zed"}})
	if err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, full)
	return full
}

// The golden of Zed's tool rules at user level (testdata/gov/
// user-tools-zed.golden): the user's keys, comments and patterns kept byte
// for byte around charter's; a second apply changes nothing; uninstall
// gives the file back as the user wrote it.
func TestZedToolRulesGolden(t *testing.T) {
	sys, snap, home, _ := zedSetup(t)
	full := zedApply(t, sys, snap)
	// "user-tools" names this set's golden beside the shared set's user-zed.
	govRound(t, sys, snap, nil, home, LevelUser+"-tools", Request{Agents: []string{"zed"}}, full, []string{"zed"},
		map[string]string{".config/zed/settings.json": zedNative})
}

// The policy's write, web and MCP denies hold in Zed's file: taken out or
// loosened by hand, the next apply puts them back; a hand-written allow of
// the denied domain goes.
func TestZedToolLocksRestored(t *testing.T) {
	sys, snap, _, file := zedSetup(t)
	zedApply(t, sys, snap)
	env := `"pattern": "(?:^|/)\\.env$"`
	data, _ := os.ReadFile(file)
	if n := strings.Count(string(data), env); n != len(zedWriteTools) {
		t.Fatalf("write:.env in %d tools, want %d:\n%s", n, len(zedWriteTools), data)
	}
	edit(t, file, env, `"pattern": "(?:^|/)\\.envrc$"`)
	edit(t, file, `"mcp:github:delete_repo": {
          "default": "deny"`, `"mcp:github:delete_repo": {
          "default": "allow"`)
	evil := `^(?:https?://)?(?:[^/?#@\\\\]*@)?evil\\.example\\.?(?::[0-9]*)?(?:[/?#\\\\]|$)`
	edit(t, file, `"always_deny": [{"pattern": "`+evil+`"}]`, `"always_deny": [{"pattern": "^x$"}]`)
	edit(t, file, `{"pattern": "docs\\.rs"}]`, `{"pattern": "docs\\.rs"}, {"pattern": "`+evil+`"}]`)
	zedApply(t, sys, snap)
	data, _ = os.ReadFile(file)
	if n := strings.Count(string(data), env); n != len(zedWriteTools) {
		t.Errorf("write:.env in %d tools after a hand edit and apply, want %d:\n%s", n, len(zedWriteTools), data)
	}
	holds(t, file, `"pattern": "^x$"`, "// mine", "/* mine too */", `"mcp:notes:list": {"default": "allow"}`)
	if strings.Count(string(data), evil) != 1 || !strings.Contains(string(data), `"mcp:github:delete_repo": {
          "default": "deny"`) {
		t.Errorf("the loosened deny was not restored, or the hand-written allow stayed:\n%s", data)
	}
}
