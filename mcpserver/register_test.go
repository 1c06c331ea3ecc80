package mcpserver

import (
	"errors"
	"slices"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
)

func TestUserEntry(t *testing.T) {
	def := core.Scope{Kind: core.ScopeGlobal, Path: "/h/.agentkit/charter", Root: core.ConfigRoot{Path: "/h/.agentkit/charter", Source: core.SourceDefault}}
	if e := UserEntry("/bin/charter", def); e.Command != "/bin/charter" || !slices.Equal(e.Args, []string{"mcp"}) {
		t.Errorf("default root: %+v", e)
	}
	// A root a host chose, by flag or by variable, is passed on explicitly.
	for _, src := range []string{core.SourceFlag, core.SourceEnv} {
		host := core.Scope{Kind: core.ScopeHost, Path: "/srv/ci", Root: core.ConfigRoot{Path: "/srv/ci", Source: src}}
		if e := UserEntry("/bin/charter", host); !slices.Equal(e.Args, []string{"--config-root", "/srv/ci", "mcp"}) {
			t.Errorf("host root from %s: %+v", src, e)
		}
	}
}

func TestUserSnippet(t *testing.T) {
	e := apply.MCPEntry{Command: "/opt/my tools/charter", Args: []string{"--config-root", `/srv/it's "ci"`, "mcp"}}
	claude, err := UserSnippet("claude", e)
	if err != nil {
		t.Fatal(err)
	}
	want := `# Claude Code, for every project (user scope):
claude mcp add --transport stdio --scope user charter -- '/opt/my tools/charter' --config-root '/srv/it'\''s "ci"' mcp
# or the same entry as JSON:
claude mcp add-json --scope user charter '{"type":"stdio","command":"/opt/my tools/charter","args":["--config-root","/srv/it'\''s \"ci\"","mcp"]}'
`
	if claude.Text != want {
		t.Errorf("claude snippet:\n%s\nwant:\n%s", claude.Text, want)
	}
	codex, err := UserSnippet("codex", e)
	if err != nil {
		t.Fatal(err)
	}
	want = `# Codex: add to $CODEX_HOME/config.toml (by default ~/.codex/config.toml)
[mcp_servers.charter]
command = "/opt/my tools/charter"
args = ["--config-root", "/srv/it's \"ci\"", "mcp"]
# Codex passes few variables to MCP servers; charter needs these to find the profile, root, project and policy.
env_vars = ["CODEX_HOME", "AGENT_SWITCH_HOME", "AGENTKIT_CONFIG_HOME", "CHARTER_PROJECT_DIR", "AGENTKIT_POLICY_FILE"]
`
	if codex.Text != want {
		t.Errorf("codex snippet:\n%s\nwant:\n%s", codex.Text, want)
	}
	if codex.Name != "charter" || codex.Command != e.Command || !slices.Equal(codex.Args, e.Args) {
		t.Errorf("codex snippet fields: %+v", codex)
	}

	_, err = UserSnippet("cursor", e)
	var ue *core.Error
	if !errors.As(err, &ue) || ue.Code() != "unknown_agent" {
		t.Errorf("unknown agent: %v", err)
	}
}
