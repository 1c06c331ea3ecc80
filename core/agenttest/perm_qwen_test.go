package agenttest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Qwen Code's side of the proof (perm_opencode_test.go has the mock's
// shell call): servers in .qwen/settings.json's mcpServers, the deny in
// its permissions.deny as Bash(git push --force).

func init() { rigs["qwen"] = agentRig{bin: "qwen", run: runQwenAt} }

// runQwenAt runs `qwen -p hi` against m under prefix (Qwen Code's
// OpenAI-compatible provider); the run may end either way.
func runQwenAt(r *rig, m *Mock, prefix string, flags ...string) string {
	t := r.t
	t.Helper()
	env := append(append([]string(nil), r.env...), "OPENAI_BASE_URL="+m.URL+prefix+"/v1", "OPENAI_API_KEY=dummy", "OPENAI_MODEL=m")
	out, _ := run(t, r.w.project, env, bin(t, "qwen"), append([]string{"-p", "hi", "--auth-type", "openai"}, flags...)...)
	return out
}

// TestQwenServerList: .qwen/settings.json holds only the allowed server,
// and Qwen Code lists only its tools. Like Gemini CLI, whose fork it is,
// Qwen Code 0.24 declares a server's tools in a headless run only in
// --yolo (charter does not write trust: true for it): without the flag
// the request names no server at all.
func TestQwenServerList(t *testing.T) {
	r := serversRig(t, "qwen")
	file := filepath.Join(r.w.project, ".qwen", "settings.json")
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), `"`+allowedServer+`"`) || strings.Contains(string(data), blockedServer) {
		t.Fatalf("%s: %v\n%s", file, err, data)
	}
	m, out := r.run("", "--yolo")
	t.Logf("qwen -p:\n%s", out)
	serverTools(t, firstAgentTurn(t, m), charterTools(t, r.w, r.env), func(server, tool string) string { return "mcp__" + server + "__" + tool })
}

// TestQwenPolicyDeny: at project and at user level, under --yolo (every
// call approved unless denied, as a script would run it), Qwen Code
// refuses the call charter's permissions.deny names; the control run,
// charter applied without the deny, lets git run under the same flag.
func TestQwenPolicyDeny(t *testing.T) {
	for _, level := range []string{"project", "user", "control"} {
		t.Run(level, func(t *testing.T) {
			policy, at := pushPolicy, level
			if level == "control" {
				policy, at = "", "project"
			}
			r := policyRig(t, "qwen", policy)
			r.apply(at)
			file := filepath.Join(r.dir(at), ".qwen", "settings.json")
			if data, err := os.ReadFile(file); level != "control" && (err != nil || !strings.Contains(string(data), `"Bash(git push --force)"`)) {
				t.Fatalf("%s does not deny Bash(git push --force): %v\n%s", file, err, data)
			}
			m, out := r.run(chatShellPrefix+"run_shell_command", "--yolo")
			res := chatToolResult(t, m)
			t.Logf("Qwen Code's tool result: %s", strings.TrimSpace(res))
			switch {
			case level == "control" && !gitRan(res):
				t.Errorf("without charter's deny Qwen Code did not run git under --yolo, so the refusals prove nothing:\n%s\n%s", res, out)
			case level != "control" && (gitRan(res) || !strings.Contains(strings.ToLower(res), "denied")):
				t.Errorf("the next request carries no refusal of %q:\n%s\n%s", forcePush, res, out)
			}
		})
	}
}
