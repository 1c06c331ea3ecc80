package agenttest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestClaudeWebEveryDeny: the policy's deny of web:* reaches Claude Code
// as the bare WebFetch (its WebFetch(domain:*) matches no domain), which
// takes the tool away: no request offers it. The control run, without
// the deny, offers WebFetch.
func TestClaudeWebEveryDeny(t *testing.T) {
	offered := func(t *testing.T, policy string) bool {
		r := policyRig(t, "claude", policy)
		r.apply("user")
		if policy != "" {
			file := filepath.Join(r.w.home, ".claude", "settings.json")
			if data, err := os.ReadFile(file); err != nil || !strings.Contains(string(data), `"WebFetch"`) {
				t.Fatalf("%s denies no WebFetch: %v\n%s", file, err, data)
			}
		}
		m, _ := r.run("")
		for i := range anthropicTurns(m) {
			if slices.Contains(strings.Split(anthropicTurn(t, m, i), "\n"), "WebFetch") { // a tool's name is a string of its own
				return true
			}
		}
		return false
	}
	t.Run("deny", func(t *testing.T) {
		if offered(t, "permissions:\n  deny: [\"web:*\"]\n") {
			t.Error("WebFetch is still offered to the model under the deny of web:*")
		}
	})
	t.Run("control-without-deny", func(t *testing.T) {
		if !offered(t, "") {
			t.Error("without the deny WebFetch is not offered either, so the run above proves nothing")
		}
	})
}
