package apply

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// The goldens of Cline and Continue: the same permissions and servers set
// as TestGovGoldens into native files holding the user's own entries,
// comments and order (YAML included), at both levels (in a project both
// report every rule and server unsupported, with the reason).
var govNativeYAML = map[string]map[string]string{
	LevelUser: {
		".continue/permissions.yaml":                   "# my cn permissions\nallow:\n  - Read\n  - \"Bash(ls*)\"   # listing is fine\n\nexclude: [Fetch]\n",
		".continue/config.yaml":                        "name: mine # my assistant\nversion: 1.0.0\nschema: v1\nmodels:\n  - name: m\n    provider: openai\nmcpServers:\n  - name: own\n    command: own-mcp\n",
		".cline/data/settings/cline_mcp_settings.json": "{\n  \"mcpServers\": {\n    \"mine\": {\"command\": \"my-mcp\", \"disabled\": false}\n  }\n}\n",
	},
	LevelProject: {".continue/rules/mine.md": "# mine\n"},
}

var govYAMLAgents = []string{"cline", "continue"}

func TestGovGoldensClineContinue(t *testing.T) { govGoldenLevels(t, govYAMLAgents, govNativeYAML) }

// Continue: without a config.yaml of the user's, no server is written (a
// file charter made would replace their Hub assistant) and apply says so;
// the permissions file charter made goes again with uninstall.
func TestContinueNoConfigKept(t *testing.T) {
	sys, snap, proj, base := govSetup(t, LevelUser)
	full, err := PlanAll(context.Background(), sys, snap, Request{Agents: []string{"continue"}, Project: proj})
	if err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, full)
	if _, err := os.Stat(filepath.Join(base, ".continue", "config.yaml")); !os.IsNotExist(err) {
		t.Errorf("config.yaml was made (%v)", err)
	}
	kept := full.Kept()
	if len(kept) != 2 || !strings.Contains(kept[0].Reason, "no config.yaml") {
		t.Errorf("kept rows %+v, want one per server saying there is no config.yaml", kept)
	}
	perm := filepath.Join(base, ".continue", "permissions.yaml")
	if data, _ := os.ReadFile(perm); string(data) != "allow:\n  - \"Bash(go)\"\nask:\n  - \"Bash(git push*)\"\nexclude:\n  - \"Bash(git push --force*)\"\n" {
		t.Errorf("permissions.yaml charter made:\n%s", data)
	}
	u, err := PlanUninstall(context.Background(), sys, proj, filepath.Join(snap.Scope.Path, "state", "projection.json"), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RunAll(context.Background(), sys, u, false); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(perm); !os.IsNotExist(err) {
		t.Errorf("after uninstall permissions.yaml is still there (%v):\n%q", err, data)
	}
}

// Refused, the file named, nothing written: YAML charter cannot read, a
// list that is no list, a [ ] list over several lines.
func TestContinueRefuses(t *testing.T) {
	for name, tc := range map[string]struct{ data, says string }{
		"not-yaml":  {"allow: [Read\n", "not YAML charter can read"},
		"no-list":   {"exclude: Bash\n", "exclude is not a list"},
		"multiline": {"exclude: [\n  Fetch,\n]\n", "exclude is a [ ] list over several lines"},
	} {
		t.Run(name, func(t *testing.T) {
			sys, snap, proj, base := govSetup(t, LevelUser)
			file := filepath.Join(base, ".continue", "permissions.yaml")
			coretest.WriteFile(t, file, tc.data)
			full, err := PlanAll(context.Background(), sys, snap, Request{Agents: []string{"continue"}, Project: proj})
			if err == nil {
				_, err = RunAll(context.Background(), sys, full, false)
			}
			var je *MCPJSONError
			if err == nil || !errors.As(err, &je) || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "permissions.yaml") {
				t.Errorf("apply: %v, want a refusal naming permissions.yaml and saying %q", err, tc.says)
			}
			if got, _ := os.ReadFile(file); string(got) != tc.data {
				t.Errorf("permissions.yaml changed:\n%s", got)
			}
		})
	}
}

// The lock in Continue's file: the policy's deny taken out of
// permissions.yaml by hand, and an allow of the same command added, are
// undone by the next apply.
func TestContinueLockRestored(t *testing.T) {
	sys, snap, proj, base := govSetup(t, LevelUser)
	perm := filepath.Join(base, ".continue", "permissions.yaml")
	coretest.WriteFile(t, perm, "allow: []\nask: []\nexclude: []\n")
	req := Request{Agents: []string{"continue"}, Project: proj}
	full, err := PlanAll(context.Background(), sys, snap, req)
	if err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, full)
	applied, _ := os.ReadFile(perm)
	loosened := strings.Replace(strings.Replace(string(applied), `"Bash(git push --force*)"`, "", 1), `allow: [`, `allow: ["Bash(git push --force)", `, 1)
	coretest.WriteFile(t, perm, loosened)
	if full, err = PlanAll(context.Background(), sys, snap, req); err != nil {
		t.Fatal(err)
	}
	govRunFull(t, sys, full)
	got, _ := os.ReadFile(perm)
	if string(got) != string(applied) || !strings.Contains(string(got), `exclude: ["Bash(git push --force*)"]`) {
		t.Errorf("after a hand edit that loosened the deny, apply left\n%s\nwant it back as\n%s", got, applied)
	}
}
