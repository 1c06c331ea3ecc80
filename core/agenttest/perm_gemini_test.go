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

// TestGeminiPolicyDeny: what holds a deny in Gemini CLI 0.61 headless.
// charter projects a shell deny twice at user level: into settings.json's
// tools.exclude as run_shell_command(PREFIX), and as a deny [[rule]] of
// Gemini's policy engine in ~/.gemini/policies/charter.toml. The policy
// rule is what holds against a grant (--allowed-tools, --yolo): the
// exclude-alone subtest pins that tools.exclude (deprecated for the
// policy engine) does not, and fails when Gemini starts to hold it
// (docs/permissions.md must then say so). The control run, with charter
// applied but no deny, lets git run under the same grant.
func TestGeminiPolicyDeny(t *testing.T) {
	grant := []string{"--allowed-tools", "run_shell_command(git push)"}
	policyFile := func(r *rig) string { return filepath.Join(r.w.home, ".gemini", "policies", "charter.toml") }
	applied := func(t *testing.T, policy string) *rig {
		r := policyRig(t, "gemini", policy)
		r.apply("user")
		return r
	}
	denied := func(t *testing.T) *rig {
		r := applied(t, pushPolicy)
		file := filepath.Join(r.w.home, ".gemini", "settings.json")
		if data, err := os.ReadFile(file); err != nil || !strings.Contains(string(data), `"run_shell_command(git push --force)"`) {
			t.Fatalf("%s does not exclude run_shell_command(git push --force): %v\n%s", file, err, data)
		}
		if data, err := os.ReadFile(policyFile(r)); err != nil || !strings.Contains(string(data), `commandPrefix = "git push --force"`) {
			t.Fatalf("%s holds no deny of git push --force: %v\n%s", policyFile(r), err, data)
		}
		return r
	}
	ran := func(resp string) bool { return strings.Contains(resp, "not a git repository") }
	// resp is the function response of the run with flags.
	resp := func(t *testing.T, r *rig, flags ...string) string {
		m, _ := r.run(geminiShellPrefix, flags...)
		resp := lastGeminiContent(t, m, 1)
		t.Logf("Gemini CLI's function response: %s", strings.TrimSpace(resp))
		return resp
	}
	t.Run("headless-refuses", func(t *testing.T) {
		r := denied(t)
		if r := resp(t, r); ran(r) || !(strings.Contains(r, `"run_shell_command" not found`) || strings.Contains(r, "denied")) {
			t.Errorf("the next request carries no refusal of %q:\n%s", forcePush, r)
		}
	})
	for name, flags := range map[string][]string{"allowed-tools": grant, "yolo": {"--yolo"}} {
		t.Run("holds-with-"+name, func(t *testing.T) {
			r := denied(t)
			if r := resp(t, r, flags...); ran(r) || !strings.Contains(r, "denied by policy") {
				t.Errorf("charter's projection did not refuse %q under %v:\n%s", forcePush, flags, r)
			}
		})
	}
	t.Run("control-no-deny-runs", func(t *testing.T) {
		r := applied(t, "")
		if r := resp(t, r, "--yolo"); !ran(r) {
			t.Errorf("without a deny Gemini CLI did not run git under --yolo, so the refusals above prove nothing:\n%s", r)
		}
	})
	// Why charter reports a project-level shell deny unsupported for
	// Gemini: a project's .gemini/policies/ is not loaded (gemini-cli#18186).
	t.Run("gap-project-policies-ignored", func(t *testing.T) {
		r := applied(t, "")
		write(t, r.w.project, ".gemini/policies/deny.toml", "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git push --force\"\ndecision = \"deny\"\npriority = 999\n")
		if r := resp(t, r, "--yolo"); !ran(r) {
			t.Errorf("Gemini CLI now holds a project policy file: project-level denies can go there (core/apply/govgemini.go), update docs/permissions.md:\n%s", r)
		}
	})
	t.Run("gap-exclude-alone-with-grant", func(t *testing.T) {
		r := denied(t)
		if err := os.Remove(policyFile(r)); err != nil {
			t.Fatal(err)
		}
		if r := resp(t, r, grant...); !ran(r) {
			t.Errorf("Gemini CLI now holds tools.exclude against --allowed-tools: update docs/permissions.md and this test:\n%s", r)
		}
	})
}
