package apply

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// The agents known from their documentation only, and their users' own
// native files at each level: keys, entries, order, spacing and (where the
// format is JSON) nothing charter must not keep byte for byte.
var docAgents = []string{"windsurf", "roo", "augment", "kiro", "junie", "antigravity", "amp", "zed", "warp", "goose", "crush", "droid"}

var docNative = map[string]map[string]string{
	LevelUser: {
		".codeium/windsurf/mcp_config.json": "{\n\t\"mcpServers\": {\n\t\t\"mine\": {\"serverUrl\": \"https://mine.example/mcp\"}\n\t},\n\t\"x\": 1\n}\n",
		".augment/settings.json":            "{\"model\": \"sonnet\", \"toolPermissions\": [{\"toolName\": \"view\", \"permission\": {\"type\": \"allow\"}}]}\n",
		".kiro/settings/mcp.json":           "{\n  \"mcpServers\": {\n    \"mine\": {\"command\": \"my-mcp\", \"disabled\": false, \"autoApprove\": [\"read\"]}\n  }\n}\n",
		".junie/mcp/mcp.json":               "{\n  \"mcpServers\": {}\n}\n",
		".gemini/config/mcp_config.json":    "{\"mcpServers\": {\"mine\": {\"command\": \"my-mcp\", \"args\": []}}}\n",
		".config/amp/settings.json":         "{\n  \"amp.notifications.enabled\": false,\n  \"amp.mcpServers\": {\n    \"mine\": {\"url\": \"https://mine.example/mcp\"}\n  },\n  \"amp.permissions\": [{\"tool\": \"Bash\", \"action\": \"ask\"}]\n}\n",
		".warp/.mcp.json":                   "{\"mcpServers\": {\"mine\": {\"command\": \"my-mcp\"}}}\n",
		".config/crush/crush.json":          "{\n  \"$schema\": \"https://charm.land/crush.json\",\n  \"options\": {\"debug\": false},\n  \"mcp\": {\n    \"mine\": {\"type\": \"stdio\", \"command\": \"my-mcp\"}\n  }\n}\n",
		".factory/settings.json":            "{\n  \"model\": \"opus\",\n  \"commandAllowlist\": [\"ls\", \"pwd\"],\n  \"commandDenylist\": [\"rm -rf\"]\n}\n",
		".factory/mcp.json":                 "{\"mcpServers\": {\"mine\": {\"type\": \"stdio\", \"command\": \"my-mcp\", \"args\": []}}}\n",
		".config/goose/config.yaml":         "# my goose\nGOOSE_PROVIDER: anthropic   # the one I pay for\nextensions:\n    developer:\n        enabled: true\n        name: developer\n        type: builtin\n\n    # my notes server\n    mine:\n        cmd: my-mcp\n        args: []\n        enabled: false\n        type: stdio\nGOOSE_MODE: approve\n",
		".config/zed/settings.json":         "// Zed settings\n//\n// For information on how to configure Zed, see the Zed\n// documentation: https://zed.dev/docs/configuring-zed\n{\n  \"ui_font_size\": 16, // big\n  /* servers */\n  \"context_servers\": {\n    \"mine\": {\"command\": \"my-mcp\", \"args\": []}, // keep\n  },\n  \"agent\": {\n    \"tool_permissions\": {\n      \"default\": \"confirm\",\n      \"tools\": {\n        \"terminal\": {\n          // mine\n          \"always_allow\": [{\"pattern\": \"^cargo\\\\s+test\"}],\n        },\n      },\n    },\n  },\n}\n",
	},
	LevelProject: {
		".roo/mcp.json":           "{\n  \"mcpServers\": {\n    \"team\": {\"command\": \"team-mcp\", \"alwaysAllow\": []}\n  }\n}\n",
		".kiro/settings/mcp.json": "{\"mcpServers\": {\"team\": {\"command\": \"team-mcp\"}}}\n",
		".junie/mcp/mcp.json":     "{\n    \"mcpServers\": {\n        \"team\": {\"command\": \"team-mcp\", \"args\": []}\n    }\n}\n",
		".agents/mcp_config.json": "{\"mcpServers\": {}}\n",
		".amp/settings.json":      "{\"amp.dangerouslyAllowAll\": false}\n",
		"crush.json":              "{\n  \"lsp\": {\"go\": {\"command\": \"gopls\"}}\n}\n",
		".factory/settings.json":  "{\n  \"commandBlocklist\": [\"mkfs\"],\n  \"commandAllowlist\": [\"npm test\"]\n}\n",
		".factory/mcp.json":       "{\n  \"mcpServers\": {\n    \"team\": {\"type\": \"stdio\", \"command\": \"team-mcp\"}\n  }\n}\n",
		".augment/settings.json":  "{\"model\": \"sonnet\"}\n",
		".zed/settings.json":      "// Zed settings\n{\n  \"theme\": \"One Dark\" // mine\n}\n",
	},
}

// Golden projections of the permissions and servers set into every
// documented-only agent at both levels (charter's entries among the user's
// own, kept byte for byte; what an agent cannot hold, with its reason); a
// second apply changes nothing; uninstall gives every native file back as
// the user wrote it and takes out the files charter made.
func TestGovDocAgentGoldens(t *testing.T) {
	for _, level := range []string{LevelUser, LevelProject} {
		t.Run(level, func(t *testing.T) {
			sys, snap, proj, base := govSetup(t, level)
			for rel, data := range docNative[level] {
				coretest.WriteFile(t, filepath.Join(base, filepath.FromSlash(rel)), data)
			}
			req := govRequest(proj)
			if proj != nil {
				req.Agents = docAgents
			}
			full, err := PlanAll(context.Background(), sys, snap, req)
			if err != nil {
				t.Fatal(err)
			}
			govRunFull(t, sys, full)
			made := govRound(t, sys, snap, proj, base, level, req, full, docAgents, docNative[level])
			for _, rel := range made {
				if _, err := os.Stat(filepath.Join(base, filepath.FromSlash(rel))); err == nil {
					t.Errorf("%s, made by charter for its entries alone, is still there after uninstall", rel)
				}
			}
		})
	}
}
