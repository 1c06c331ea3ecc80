package agenttest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// userServersRig is agent's rig whose scope settings declare both servers
// of perm_servers_test.go under a policy that allows one, applied at user
// level (a project's servers are projected only into project files);
// before, when set, prepares the world first (the user's own files).
func userServersRig(t *testing.T, agent string, before ...func(w world)) *rig {
	t.Helper()
	r := policyRig(t, agent, "mcp:\n  allowed: ["+allowedServer+"]\n")
	for _, f := range before {
		f(r.w)
	}
	entry := "{command: " + charter(t) + ", args: [mcp]}"
	write(t, r.w.root, "settings.yaml", "mcp:\n  servers:\n    "+allowedServer+": "+entry+"\n    "+blockedServer+": "+entry+"\n")
	r.apply("user")
	if out := r.charter("mcp-servers", "list"); !regexp.MustCompile(`(?m)^` + blockedServer + ` .*not projected: not in the policy's mcp.allowed$`).MatchString(out) {
		t.Fatalf("charter mcp-servers list does not report %s outside mcp.allowed:\n%s", blockedServer, out)
	}
	return r
}

// TestCopilotServerList: the Copilot CLI's user-level mcp-config.json
// (in ~/.copilot) holds only the allowed server, and the tool list of the
// CLI's first request carries each of its tools and none of the other's.
func TestCopilotServerList(t *testing.T) {
	r := userServersRig(t, "copilot")
	file := filepath.Join(r.w.home, ".copilot", "mcp-config.json")
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), `"`+allowedServer+`"`) || strings.Contains(string(data), blockedServer) {
		t.Fatalf("%s: %v\n%s", file, err, data)
	}
	m, _ := r.run("")
	serverTools(t, firstChatTurn(t, m), charterTools(t, r.w, r.env), copilotTool)
}

// copilotTool is a server's tool as the Copilot CLI names it.
func copilotTool(server, tool string) string { return server + "-" + tool }
