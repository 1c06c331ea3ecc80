package agenttest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Codex's side of the refusal proof (see perm_claude_test.go). Codex 0.169
// runs a shell command through its exec tool (a JavaScript sandbox whose
// tools.exec_command runs it), so the mock's exec script calls
// exec_command with forcePush and prints what came back. charter projects
// the policy's deny as an execpolicy line in $CODEX_HOME/rules/charter.rules:
// prefix_rule(pattern = ["git", "push", "--force"], decision = "forbidden").
// The run grants everything first (--dangerously-bypass-approvals-and-sandbox).

const codexShellPrefix = "/shell-exec"

func init() {
	routes[codexShellPrefix+"/v1/responses"] = serveExec(`const r = await tools.exec_command({ cmd: ` + strconv.Quote(forcePush) + ` });
text("RESULT: " + JSON.stringify(r));`)
}

func TestCodexPolicyDenyRefuses(t *testing.T) {
	grant := "--dangerously-bypass-approvals-and-sandbox"
	for _, level := range []string{"user", "project"} {
		t.Run(level, func(t *testing.T) {
			r := policyRig(t, "codex", pushPolicy)
			r.apply(level)
			rules := filepath.Join(r.dir(level), ".codex", "rules", "charter.rules")
			if data, err := os.ReadFile(rules); err != nil || !strings.Contains(string(data), `"forbidden"`) {
				t.Fatalf("%s: %v\n%s", rules, err, data)
			}
			m, _ := r.run(codexShellPrefix, grant) // its first run trusts the project: Codex reads its .codex/ only then
			out := execOutput(t, m)
			t.Logf("Codex's exec output: %s", strings.TrimSpace(out))
			if strings.Contains(out, "not a git repository") || !strings.Contains(out, "policy forbids commands starting with `git push --force`") {
				t.Errorf("the next request carries no refusal of %q:\n%s", forcePush, out)
			}
		})
	}
	t.Run("control-without-deny", func(t *testing.T) {
		m, _ := policyRig(t, "codex", "").run(codexShellPrefix, grant)
		out := execOutput(t, m)
		t.Logf("Codex's exec output: %s", strings.TrimSpace(out))
		if !strings.Contains(out, "not a git repository") {
			t.Errorf("without charter's deny, the grant should let git run:\n%s", out)
		}
	})
}

// TestCodexServerList: the project's .codex/config.toml holds only the
// allowed server, and Codex names only its namespace among the deferred
// tools of its first request.
func TestCodexServerList(t *testing.T) {
	r := serversRig(t, "codex")
	data, err := os.ReadFile(filepath.Join(r.w.project, ".codex", "config.toml"))
	if err != nil || !strings.Contains(string(data), "[mcp_servers."+allowedServer+"]") || strings.Contains(string(data), blockedServer) {
		t.Fatalf(".codex/config.toml: %v\n%s", err, data)
	}
	m, _ := r.run("")
	sent := firstResponsesTurn(t, m)
	seenOnce(t, sent, "mcp__"+allowedServer+":", "the allowed server's deferred tool namespace")
	if n := count(sent, "mcp__"+blockedServer); n != 0 {
		t.Errorf("the server outside mcp.allowed reached the model %d times", n)
	}
}
