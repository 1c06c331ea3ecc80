package agenttest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The server lists in the agent itself (SPEC §14): the project declares
// two MCP servers, both charter's own `charter mcp` (a small stdio server
// whose tools charter lists), and the policy's mcp.allowed names one.
// After `charter trust` and `charter apply --project`, the agent's first
// request to the model carries every tool of the allowed server and none
// of the other's.

const (
	allowedServer = "okserver"
	blockedServer = "offserver"
)

// serversRig is agent's rig in a trusted project declaring both servers,
// under a policy that allows one, applied at project level.
func serversRig(t *testing.T, agent string) *rig {
	t.Helper()
	r := policyRig(t, agent, "mcp:\n  allowed: ["+allowedServer+"]\n")
	entry := "{command: " + charter(t) + ", args: [mcp]}"
	write(t, r.w.project, ".charter/settings.yaml", "mcp:\n  servers:\n    "+allowedServer+": "+entry+"\n    "+blockedServer+": "+entry+"\n")
	r.charter("trust")
	r.apply("project")
	if out := r.charter("mcp-servers", "list"); !regexp.MustCompile(`(?m)^` + blockedServer + ` .*not projected: not in the policy's mcp.allowed$`).MatchString(out) {
		t.Fatalf("charter mcp-servers list does not report %s outside mcp.allowed:\n%s", blockedServer, out)
	}
	return r
}

// serverTools checks the first request: every tool of the allowed server
// once (as name(server, tool)), none of the blocked one's.
func serverTools(t *testing.T, sent string, tools []string, name func(server, tool string) string) {
	t.Helper()
	toolsOnce(t, sent, tools, func(tool string) string { return name(allowedServer, tool) })
	if n := count(sent, name(blockedServer, "")); n != 0 {
		t.Errorf("the server outside mcp.allowed reached the model %d times (%s…)", n, name(blockedServer, ""))
	}
}

// TestClaudeServerList: .mcp.json holds only the allowed server, and
// Claude Code lists only its tools.
func TestClaudeServerList(t *testing.T) {
	r := serversRig(t, "claude")
	data, err := os.ReadFile(filepath.Join(r.w.project, ".mcp.json"))
	if err != nil || !strings.Contains(string(data), `"`+allowedServer+`"`) || strings.Contains(string(data), blockedServer) {
		t.Fatalf(".mcp.json: %v\n%s", err, data)
	}
	m, _ := r.run("")
	serverTools(t, anthropicTurn(t, m, 0), charterTools(t, r.w, r.env), func(server, tool string) string { return "mcp__" + server + "__" + tool })
}

// TestGeminiServerList: .gemini/settings.json holds only the allowed
// server. Gemini CLI declares an untrusted server's tools in a headless
// run only in --yolo (charter does not write trust: true for it).
func TestGeminiServerList(t *testing.T) {
	r := serversRig(t, "gemini")
	data, err := os.ReadFile(filepath.Join(r.w.project, ".gemini", "settings.json"))
	if err != nil || !strings.Contains(string(data), `"`+allowedServer+`"`) || strings.Contains(string(data), blockedServer) {
		t.Fatalf(".gemini/settings.json: %v\n%s", err, data)
	}
	m, _ := r.run("", "--yolo")
	serverTools(t, firstGeminiTurn(t, m), charterTools(t, r.w, r.env), func(server, tool string) string { return "mcp_" + server + "_" + tool })
}
