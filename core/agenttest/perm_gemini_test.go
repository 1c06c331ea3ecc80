package agenttest

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Gemini CLI's side of the refusal proof (see perm_claude_test.go): the
// mock asks for run_shell_command with forcePush.

// geminiShellPrefix is the base URL path under which the mock asks Gemini
// CLI to run forcePush before it answers.
const geminiShellPrefix = "/shell-call-gemini"

func init() { routes[geminiShellPrefix+"/v1beta/models/"] = serveGeminiShell }

// serveGeminiShell answers a turn with a run_shell_command call of
// forcePush until a function response came back.
func serveGeminiShell(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
	switch {
	case strings.HasSuffix(r.URL.Path, ":countTokens"):
		serveGeminiCount(m, w, r, body)
		return
	case !strings.HasSuffix(r.URL.Path, ":streamGenerateContent") || strings.Contains(string(body), `"functionResponse"`):
		serveGemini(m, w, r, body)
		return
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP", "content": map[string]any{"role": "model",
			"parts": []any{map[string]any{"functionCall": map[string]any{"name": "run_shell_command",
				"args": map[string]any{"command": forcePush, "description": "Force-push the branch"}}}}}}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 2, "totalTokenCount": 12},
	}
	data, _ := json.Marshal(resp)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Write([]byte("data: " + string(data) + "\n\n"))
}

// runGeminiFlags is runGeminiAt with flags; the run may end either way
// (a refused call can end it with an error): the requests are the proof.
func runGeminiFlags(t *testing.T, w world, env []string, m *Mock, prefix string, flags ...string) string {
	t.Helper()
	env = append(append(append([]string(nil), env...), geminiEnv(w, m)[len(w.env()):]...), "GOOGLE_GEMINI_BASE_URL="+m.URL+prefix)
	out, _ := run(t, w.project, env, bin(t, "gemini"), append([]string{"-p", "hi"}, flags...)...)
	return out
}

// TestGeminiPolicyDeny: what holds a deny in Gemini CLI 0.61 headless.
// charter projects it into tools.exclude as run_shell_command(PREFIX)
// (settings.json, user and project level). Without a grant a headless run
// refuses the shell anyway; with one (--allowed-tools, or --yolo) Gemini
// runs the denied command: tools.exclude (deprecated for the policy
// engine) does not hold. A deny rule of Gemini's policy engine in
// ~/.gemini/policies/ holds even in --yolo (and against --allowed-tools:
// seen 2026-11-28). The gap subtest pins the
// current behaviour: when Gemini starts to hold tools.exclude it fails,
// and docs/permissions.md must say so.
func TestGeminiPolicyDeny(t *testing.T) {
	bin(t, "gemini")
	grant := []string{"--allowed-tools", "run_shell_command(git push)"}
	applied := func(t *testing.T) (world, []string) {
		w, env := policyWorld(t, pushPolicy)
		if out, err := run(t, w.project, env, charter(t), "apply", "--agent", "gemini"); err != nil {
			t.Fatalf("charter apply --agent gemini: %v\n%s", err, out)
		}
		writeGeminiSettings(t, w)
		file := filepath.Join(w.home, ".gemini", "settings.json")
		if data, err := os.ReadFile(file); err != nil || !strings.Contains(string(data), `"run_shell_command(git push --force)"`) {
			t.Fatalf("%s does not exclude run_shell_command(git push --force): %v\n%s", file, err, data)
		}
		return w, env
	}
	ran := func(resp string) bool { return strings.Contains(resp, "not a git repository") }
	t.Run("headless-refuses", func(t *testing.T) {
		w, env := applied(t)
		m := newMock(t)
		runGeminiFlags(t, w, env, m, geminiShellPrefix)
		resp := lastGeminiContent(t, m, 1)
		t.Logf("Gemini CLI's function response: %s", strings.TrimSpace(resp))
		if ran(resp) || !(strings.Contains(resp, `"run_shell_command" not found`) || strings.Contains(resp, "denied")) {
			t.Errorf("the next request carries no refusal of %q:\n%s", forcePush, resp)
		}
	})
	t.Run("gap-exclude-with-grant", func(t *testing.T) {
		w, env := applied(t)
		m := newMock(t)
		runGeminiFlags(t, w, env, m, geminiShellPrefix, grant...)
		resp := lastGeminiContent(t, m, 1)
		t.Logf("Gemini CLI's function response: %s", strings.TrimSpace(resp))
		if !ran(resp) {
			t.Errorf("Gemini CLI now holds tools.exclude against --allowed-tools: update docs/permissions.md and this test:\n%s", resp)
		}
	})
	t.Run("policy-engine-holds-in-yolo", func(t *testing.T) {
		w, env := policyWorld(t, "")
		write(t, w.home, ".gemini/policies/deny.toml", "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git push --force\"\ndecision = \"deny\"\npriority = 999\n")
		writeGeminiSettings(t, w)
		m := newMock(t)
		runGeminiFlags(t, w, env, m, geminiShellPrefix, "--yolo")
		resp := lastGeminiContent(t, m, 1)
		t.Logf("Gemini CLI's function response: %s", strings.TrimSpace(resp))
		if ran(resp) || !strings.Contains(resp, "denied by policy") {
			t.Errorf("a policy-engine deny did not refuse %q:\n%s", forcePush, resp)
		}
	})
}
