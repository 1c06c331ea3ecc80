package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/helpers/shell"
)

// ServerName is the name charter registers under with each agent.
const ServerName = apply.MCPServerName

// UserEntry is the entry for user-level registration: the binary's absolute
// path, then `--config-root ROOT` when a host chose the root (an agent does
// not pass the variable on everywhere, and the root must be the same one),
// then `mcp`.
func UserEntry(exe string, sc core.Scope) apply.MCPEntry {
	var args []string
	if sc.Kind == core.ScopeHost {
		args = append(args, "--config-root", sc.Root.Path)
	}
	return apply.MCPEntry{Command: exe, Args: append(args, "mcp")}
}

// CodexEnvVars are the variables charter reads that Codex does not pass to
// an MCP server unless asked: it passes only HOME, PATH, USER, LANG and a
// few more (codex-rs/rmcp-client/src/utils.rs, DEFAULT_ENV_VARS).
var CodexEnvVars = []string{"CODEX_HOME", "AGENT_SWITCH_HOME", core.ConfigHomeVar, "CHARTER_PROJECT_DIR", "AGENTKIT_POLICY_FILE"}

// Agents that --print-config knows.
var Agents = []string{"claude", "codex", "gemini"}

// Snippet is what a person pastes to register charter with one agent.
type Snippet struct {
	Agent   string   `json:"agent"`
	Name    string   `json:"name"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Text    string   `json:"text"`
}

// UserSnippet renders the user-level registration of e for agent.
func UserSnippet(agent string, e apply.MCPEntry) (Snippet, error) {
	sn := Snippet{Agent: agent, Name: ServerName, Command: e.Command, Args: e.Args}
	switch agent {
	case "claude":
		entry, err := json.Marshal(e.Claude())
		if err != nil {
			return Snippet{}, err
		}
		var b strings.Builder
		fmt.Fprintln(&b, "# Claude Code, for every project (user scope):")
		fmt.Fprintf(&b, "claude mcp add --transport stdio --scope user %s -- %s\n", ServerName, shell.Join(append([]string{e.Command}, e.Args...)))
		fmt.Fprintln(&b, "# or the same entry as JSON:")
		fmt.Fprintf(&b, "claude mcp add-json --scope user %s %s\n", ServerName, shell.Quote(string(entry)))
		sn.Text = b.String()
	case "codex":
		var b strings.Builder
		fmt.Fprintln(&b, "# Codex: add to $CODEX_HOME/config.toml (by default ~/.codex/config.toml)")
		fmt.Fprintf(&b, "[mcp_servers.%s]\n", ServerName)
		fmt.Fprintf(&b, "command = %s\n", tomlString(e.Command))
		fmt.Fprintf(&b, "args = %s\n", tomlArray(e.Args))
		fmt.Fprintln(&b, "# Codex passes few variables to MCP servers; charter needs these to find the profile, root, project and policy.")
		fmt.Fprintf(&b, "env_vars = %s\n", tomlArray(CodexEnvVars))
		sn.Text = b.String()
	case "gemini":
		// Gemini CLI hides an untrusted server's tools in headless runs
		// (`gemini -p`), so the entry is trusted: charter's tools only
		// read, but gates_run runs the project's trusted gates.
		entry, err := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{ServerName: map[string]any{
			"command": e.Command, "args": e.Args, "trust": true}}}, "", "  ")
		if err != nil {
			return Snippet{}, err
		}
		var b strings.Builder
		fmt.Fprintln(&b, "# Gemini CLI, for every project (user scope):")
		fmt.Fprintf(&b, "gemini mcp add --scope user --trust %s %s\n", ServerName, shell.Join(append([]string{e.Command}, e.Args...)))
		fmt.Fprintln(&b, "# or merge into ~/.gemini/settings.json:")
		b.Write(entry)
		b.WriteByte('\n')
		sn.Text = b.String()
	default:
		return Snippet{}, errcode.Errorf(core.CodeUnknownAgent, "unknown agent %q for --print-config: choose %s or %s", agent, strings.Join(Agents[:len(Agents)-1], ", "), Agents[len(Agents)-1])
	}
	return sn, nil
}

// tomlString is a TOML basic string. JSON's string escapes are all valid
// TOML escapes, so the JSON encoding is one.
func tomlString(s string) string {
	b, _ := json.Marshal(s) // a string always encodes
	return string(b)
}

func tomlArray(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = tomlString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
