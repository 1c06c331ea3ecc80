package agenttest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGeminiWebEveryDeny: the policy's deny of web:* reaches Gemini CLI as
// its whole web_fetch tool (tools.exclude and a policy-engine rule in
// charter.toml). Under --yolo the tool is not offered to the model, and the
// policy file with that rule still holds the shell deny beside it (Gemini
// loaded it); the control run, without web:*, offers web_fetch.
func TestGeminiWebEveryDeny(t *testing.T) {
	run := func(t *testing.T, policy string) (offered bool, resp string) {
		r := policyRig(t, "gemini", policy)
		r.apply("user")
		if strings.Contains(policy, "web:*") {
			file := filepath.Join(r.w.home, ".gemini", "policies", "charter.toml")
			if data, err := os.ReadFile(file); err != nil || !strings.Contains(string(data), `toolName = "web_fetch"`) {
				t.Fatalf("%s holds no web_fetch rule: %v\n%s", file, err, data)
			}
		}
		m, _ := r.run(geminiShellPrefix, "--yolo")
		lines := strings.Split(firstGeminiTurn(t, m), "\n") // tool names are strings of their own
		return slices.Contains(lines, "web_fetch"), lastGeminiContent(t, m, 1)
	}
	t.Run("deny", func(t *testing.T) {
		offered, resp := run(t, "permissions:\n  deny: [\"shell:git push --force\", \"web:*\"]\n")
		if offered {
			t.Error("web_fetch is still offered to the model under the deny of web:*")
		}
		if !strings.Contains(resp, "denied by policy") {
			t.Errorf("the shell deny beside the web_fetch rule did not hold (was the policy file loaded?):\n%s", resp)
		}
	})
	t.Run("control-without-web-deny", func(t *testing.T) {
		if offered, _ := run(t, pushPolicy); !offered {
			t.Error("without the deny web_fetch is not offered either, so the run above proves nothing")
		}
	})
}
