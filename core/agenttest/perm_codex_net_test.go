package agenttest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Codex's network switch: the user's config.toml opens the sandbox's
// network; with the policy's deny of web:* charter turns it to
// network_access = false, and Codex tells the model, in the environment
// context of its first request, that the network is off. The control run
// (no deny) shows the user's own setting reaching the model.
func TestCodexPolicyDenyCutsNetwork(t *testing.T) {
	const users = "[sandbox_workspace_write]\nnetwork_access = true # mine\n"
	said := regexp.MustCompile(`Network access is ([a-z]+)`)
	for _, c := range []struct{ name, level, policy, want string }{
		{"user", "user", "permissions:\n  deny: [\"web:*\"]\n", "restricted"},
		{"project", "project", "permissions:\n  deny: [\"web:*\"]\n", "restricted"},
		{"control-without-deny", "user", "", "enabled"},
		{"control-project", "project", "", "enabled"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := policyRig(t, "codex", c.policy)
			write(t, filepath.Join(r.dir(c.level), ".codex"), "config.toml", users)
			r.apply(c.level)
			data, err := os.ReadFile(filepath.Join(r.dir(c.level), ".codex", "config.toml"))
			if err != nil {
				t.Fatal(err)
			}
			if c.policy != "" && !strings.Contains(string(data), "network_access = false\n") {
				t.Fatalf("charter did not cut the network in config.toml:\n%s", data)
			}
			m, _ := r.run("", "--sandbox", "workspace-write")
			sent := firstResponsesTurn(t, m)
			got := said.FindStringSubmatch(sent)
			if got == nil || got[1] != c.want {
				t.Errorf("Codex told the model %q, want network access %q; the request:\n%s", got, c.want, sent)
			}
		})
	}
}
