package commands

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/coretest"
)

// zork is an agent only this test knows: one table entry, with its own
// places for every kind in a project.
var zork = agents.Agent{Name: "zork", Display: "Zork", DefaultDir: ".zork", UserFile: "ZORK.md", ProjectFile: ".zork/rules/charter.md",
	Format: agents.FormatRules, Reads: []agents.Read{{Path: ".zork/rules/", Scoped: true}},
	User: agents.Places{RulesInBlock: true},
	Project: agents.Places{Rules: agents.Place{Dir: ".zork/rules/", Ext: ".md", Format: "paths"}, Skills: agents.Place{Dir: ".zork/skills/"},
		Commands: agents.Place{Dir: ".zork/commands/", Ext: ".md", Format: "md"}, Subagents: agents.Place{Dir: ".zork/agents/", Ext: ".md", Format: "claude"}},
	Scoping: "paths:", Trust: "none", Verified: "this test", Docs: []string{"https://example.invalid/zork"}}

// Adding an agent is one table entry (SPEC §17): with zork in the table,
// apply projects every kind into its places, import reads them back,
// doctor checks its file, `charter agents` and the MCP tools know it.
func TestFictionalAgentEverywhere(t *testing.T) {
	home := t.TempDir()
	repo := filepath.Join(home, "repo")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "settings.yaml"), "")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "rules", "go-style.md"), "---\ndescription: Go\nglobs: [\"**/*.go\"]\n---\nUse gofmt.\n")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "commands", "ship.md"), "---\ndescription: Ship\n---\nShip $ARGUMENTS.\n")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	environ := coretest.New(t, coretest.Home(home)).Environ()
	exec := func(args ...string) run {
		var out, errb bytes.Buffer
		args = append([]string{"--project-dir", repo}, args...)
		app := newApp(Build{Version: "t"}, strings.NewReader(""), &out, &errb, environ, afero.NewOsFs(), args)
		app.Sys.AgentTable = append(agents.Default(), zork)
		app.Interactive = func() bool { return false }
		return run{int(app.run(context.Background(), args)), out.String(), errb.String()}
	}
	if r := exec("apply", "--project", "--agent", "zork"); r.code != 0 {
		t.Fatalf("apply: %d %s%s", r.code, r.stdout, r.stderr)
	}
	rule, err := os.ReadFile(filepath.Join(repo, ".zork", "rules", "go-style.md"))
	if err != nil || !strings.Contains(string(rule), "paths:\n  - \"**/*.go\"") {
		t.Errorf("zork's rule: %v\n%s", err, rule)
	}
	if data, err := os.ReadFile(filepath.Join(repo, ".zork", "rules", "charter.md")); err != nil || !strings.Contains(string(data), "<!-- charter:begin -->") {
		t.Errorf("zork's block file: %v\n%s", err, data)
	}
	if _, err := os.Stat(filepath.Join(repo, ".zork", "commands", "ship.md")); err != nil {
		t.Errorf("zork's command: %v", err)
	}
	if r := exec("apply", "--project", "--agent", "zork", "--check"); r.code != 0 {
		t.Errorf("apply --check: %d %s%s", r.code, r.stdout, r.stderr)
	}
	// A native rule of its own, imported from its place.
	coretest.WriteFile(t, filepath.Join(repo, ".zork", "rules", "mine.md"), "Mine.\n")
	if r := exec("import", "--from", "zork", "--project"); r.code != 0 || !strings.Contains(r.stdout, "imported") || !strings.Contains(r.stdout, "mine") {
		t.Errorf("import --from zork: %d %s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, ".charter", "rules", "mine.md")); err != nil {
		t.Errorf("imported source: %v", err)
	}
	if r := exec("agents", "--json"); !strings.Contains(r.stdout, `"name": "zork"`) || !strings.Contains(r.stdout, `".zork/rules/NAME.md (paths)"`) {
		t.Errorf("charter agents --json: %s", r.stdout)
	}
	if r := exec("doctor"); !strings.Contains(r.stdout+r.stderr, "zork") {
		t.Errorf("doctor does not name zork:\n%s%s", r.stdout, r.stderr)
	}
	if r := exec("rules", "show", "go-style", "--json"); !strings.Contains(r.stdout, `"zork"`) {
		t.Errorf("rules show: zork is not among the agents that get it:\n%s", r.stdout)
	}
}
