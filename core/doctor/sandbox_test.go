package doctor_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/doctor"
	"github.com/agentkit/charter/core/session"
)

// A policy deny of web:* is expressible for Codex (no policy-denies
// failure), and doctor fails when Codex's config.toml turns the sandbox
// off, warns when a permission profile makes Codex ignore the table.
func TestCodexSandboxNetwork(t *testing.T) {
	m := coretest.New(t)
	sys, home := m.Sys, m.Home
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o700); err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(filepath.Dir(home), "repo")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "settings.yaml"), "rules:\n  tier: full\n")
	run := func() []doctor.Check {
		rep := runAll(env{Session: session.New(sys, session.Options{ProjectDir: &repo})})
		var lines []doctor.Check
		for _, c := range rep.Checks {
			if strings.HasPrefix(c.Name, "codex-sandbox") ||
				(strings.HasPrefix(c.Name, "policy-denies") && strings.Contains(c.Message, "web:*")) {
				lines = append(lines, c)
			}
		}
		return lines
	}
	if lines := run(); len(lines) != 0 {
		t.Errorf("lines without the deny: %+v", lines)
	}
	coretest.WriteFile(t, m.PolicyFile, "permissions:\n  deny: [\"web:*\"]\n")
	if lines := run(); len(lines) != 1 || lines[0].Name != "codex-sandbox" || lines[0].Status != doctor.OK {
		t.Fatalf("with the deny and no config.toml: %+v, want one ok line and no policy-denies failure for web:*", lines)
	}
	toml := filepath.Join(home, ".codex", "config.toml")
	coretest.WriteFile(t, toml, "sandbox_mode = \"danger-full-access\"\n")
	lines := run()
	if len(lines) != 1 || lines[0].Name != "codex-sandbox:user" || lines[0].Status != doctor.Fail ||
		!strings.Contains(lines[0].Message, toml) || !strings.Contains(lines[0].Fix, "workspace-write") {
		t.Errorf("danger-full-access: %+v", lines)
	}
	coretest.WriteFile(t, toml, "sandbox_workspace_write = { network_access = true }\n")
	lines = run()
	if len(lines) != 1 || lines[0].Name != "codex-sandbox:user" || lines[0].Status != doctor.Fail || !strings.Contains(lines[0].Message, "network_access = true") {
		t.Errorf("network_access = true left inline: %+v", lines)
	}
	project := filepath.Join(repo, ".codex", "config.toml")
	coretest.WriteFile(t, toml, "sandbox_mode = \"workspace-write\"\n")
	coretest.WriteFile(t, project, "default_permissions = \":workspace\"\n")
	lines = run()
	if len(lines) != 1 || lines[0].Name != "codex-sandbox:project" || lines[0].Status != doctor.Warn || !strings.Contains(lines[0].Message, project) {
		t.Errorf("a permission profile in the project: %+v", lines)
	}
}
