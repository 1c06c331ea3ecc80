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

// runCodexAt runs `codex exec hi` against the mock under prefix with flags.
func runCodexAt(t *testing.T, w world, env []string, m *Mock, prefix string, flags ...string) {
	t.Helper()
	args := append([]string{"exec", "--skip-git-repo-check", "--color", "never",
		"-c", "model_providers.mock.base_url=" + tomlQuote(m.URL+prefix+"/v1")}, flags...)
	out, err := run(t, w.project, env, bin(t, "codex"), append(args, "hi")...)
	if err != nil || !strings.Contains(out, responsesReply) {
		t.Fatalf("codex exec: %v\n%s\nrequests: %s", err, out, requestLines(m))
	}
}

func codexWorld(t *testing.T, policy string) (world, []string) {
	t.Helper()
	w, env := policyWorld(t, policy)
	return w, append(env, "CODEX_HOME="+filepath.Join(w.home, ".codex"), "MOCK_KEY=dummy", "TMPDIR="+filepath.Join(w.home, "tmp"))
}

func TestCodexPolicyDenyRefuses(t *testing.T) {
	bin(t, "codex")
	grant := "--dangerously-bypass-approvals-and-sandbox"
	for _, level := range []string{"user", "project"} {
		t.Run(level, func(t *testing.T) {
			w, env := codexWorld(t, pushPolicy)
			args := []string{"apply", "--agent", "codex"}
			rules := filepath.Join(w.home, ".codex", "rules", "charter.rules")
			if level == "project" {
				args = append(args, "--project")
				rules = filepath.Join(w.project, ".codex", "rules", "charter.rules")
			}
			if out, err := run(t, w.project, env, charter(t), args...); err != nil {
				t.Fatalf("charter %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			if data, err := os.ReadFile(rules); err != nil || !strings.Contains(string(data), `"forbidden"`) {
				t.Fatalf("%s: %v\n%s", rules, err, data)
			}
			m := newMock(t)
			writeCodexConfig(t, w, m) // trusts the project: Codex reads its .codex/ only then
			runCodexAt(t, w, env, m, codexShellPrefix, grant)
			out := execOutput(t, m)
			t.Logf("Codex's exec output: %s", strings.TrimSpace(out))
			if strings.Contains(out, "not a git repository") || !strings.Contains(out, "policy forbids commands starting with `git push --force`") {
				t.Errorf("the next request carries no refusal of %q:\n%s", forcePush, out)
			}
		})
	}
	t.Run("control-without-deny", func(t *testing.T) {
		w, env := codexWorld(t, "")
		m := newMock(t)
		writeCodexConfig(t, w, m)
		runCodexAt(t, w, env, m, codexShellPrefix, grant)
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
	bin(t, "codex")
	w, env := serversWorld(t, "codex")
	env = append(env, "CODEX_HOME="+filepath.Join(w.home, ".codex"), "MOCK_KEY=dummy", "TMPDIR="+filepath.Join(w.home, "tmp"))
	data, err := os.ReadFile(filepath.Join(w.project, ".codex", "config.toml"))
	if err != nil || !strings.Contains(string(data), "[mcp_servers."+allowedServer+"]") || strings.Contains(string(data), blockedServer) {
		t.Fatalf(".codex/config.toml: %v\n%s", err, data)
	}
	m := newMock(t)
	writeCodexConfig(t, w, m)
	runCodexAt(t, w, env, m, "")
	sent := firstResponsesTurn(t, m)
	seenOnce(t, sent, "mcp__"+allowedServer+":", "the allowed server's deferred tool namespace")
	if n := count(sent, "mcp__"+blockedServer); n != 0 {
		t.Errorf("the server outside mcp.allowed reached the model %d times", n)
	}
}
