package apply

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/project"
)

// The project block and the Cursor rules file, byte for byte.
func TestProjectGolden(t *testing.T) {
	global := core.Scope{Kind: core.ScopeGlobal, Path: "/home/me/.agentkit/charter"}
	snap := snapshot(t, global, customYAML)
	block := projectBlock(snap, Render(snap, Library{Rules: 2, RulesDir: ".cursor/rules", Skills: 1, SkillsDir: ".cursor/skills"}))
	coretest.Golden(t, filepath.Join("testdata", "project.golden"), block)
	if bytes.Contains(block, []byte("/home/me")) {
		t.Error("the project block names a home directory; it is shared through git")
	}
	if _, found, err := findBlock("project", block); err != nil || !found {
		t.Errorf("the project block does not parse as one block: %v", err)
	}
	cursor := agents.Default()[3]
	parts, err := renderers.Get()[agents.FormatRules](cursor, "charter.mdc", []byte("user text charter replaces\n"), block)
	if err != nil {
		t.Fatal(err)
	}
	mdc := join(parts)
	coretest.Golden(t, filepath.Join("testdata", "cursor.mdc.golden"), mdc)
	if !bytes.HasPrefix(mdc, []byte("---\ndescription: ")) || !bytes.Contains(mdc, []byte("\nalwaysApply: true\n---\n"+BeginMarker+"\n")) {
		t.Errorf("rules file frontmatter:\n%s", mdc)
	}
}

func newProject(t *testing.T, m *machine, rel string) *core.Project {
	t.Helper()
	m.mkdir(t, rel+"/.charter")
	dir := m.path(rel)
	p, err := project.Find(m.sys, &dir, false)
	if err != nil || p == nil {
		t.Fatalf("project %s: %v", dir, err)
	}
	return p
}

// apply --project: CLAUDE.md and AGENTS.md always, other agents' files only
// when already there, .mcp.json last; text outside the block kept. With
// Copilot's and Cursor's files there, the block is placed so that each
// agent reads it once (placement.go): Claude's in .claude/CLAUDE.md, which
// neither reads, and AGENTS.md serves both.
func TestPlanProject(t *testing.T) {
	m := newMachine(t)
	proj := newProject(t, m, "repo")
	m.write(t, "repo/CLAUDE.md", "# Team notes\n\nkeep   me\n")
	block := string(projectBlock(m.snap, Render(m.snap, Library{})))
	m.write(t, "repo/.github/copilot-instructions.md", "Use tabs.\n\n"+block)
	m.mkdir(t, "repo/.cursor/rules")

	full, err := PlanAll(context.Background(), m.sys, m.snap, Request{Project: proj})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range full.Targets {
		rel, _ := filepath.Rel(m.path("repo"), tg.Path)
		got = append(got, tg.Agent+"="+filepath.ToSlash(rel)+"@"+tg.Level)
	}
	want := []string{"claude=.claude/CLAUDE.md@project", "claude=.claude/settings.json@project", "codex=AGENTS.md@project", "codex=.codex/hooks.json@project",
		"copilot=.github/copilot-instructions.md@project", "mcp=.mcp.json@project"}
	if !slices.Equal(got, want) {
		t.Fatalf("targets %v, want %v", got, want)
	}
	var served []string
	for _, r := range full.Skipped {
		served = append(served, r.Agent)
		if !strings.Contains(r.Reason, "AGENTS.md") {
			t.Errorf("%s served, reason %q names no AGENTS.md", r.Agent, r.Reason)
		}
	}
	if !slices.Equal(served, []string{"cursor", "copilot"}) {
		t.Errorf("served %v, want cursor and copilot", served)
	}
	res, err := Run(context.Background(), m.sys, full.Targets, false)
	if err != nil {
		t.Fatal(err)
	}
	if res[4].State != StateWritten {
		t.Errorf("copilot's old block: %s, want written (taken out)", res[4].State)
	}
	if got := m.read(t, "repo/.claude/CLAUDE.md"); got != block {
		t.Errorf(".claude/CLAUDE.md:\n%s", got)
	}
	if got := m.read(t, "repo/CLAUDE.md"); got != "# Team notes\n\nkeep   me\n" {
		t.Errorf("CLAUDE.md:\n%s", got)
	}
	if got := m.read(t, "repo/.github/copilot-instructions.md"); got != "Use tabs.\n" {
		t.Errorf("copilot-instructions.md:\n%s", got)
	}
	if _, err := os.Stat(m.path("repo/.cursor/rules/charter.mdc")); !os.IsNotExist(err) {
		t.Errorf("charter.mdc written where AGENTS.md serves Cursor: %v", err)
	}
	if !strings.Contains(m.read(t, "repo/.mcp.json"), `"charter"`) {
		t.Error(".mcp.json not registered")
	}
	if fi, err := os.Stat(m.path("repo/AGENTS.md")); err != nil || fi.Mode().Perm()&0o044 == 0 {
		t.Errorf("AGENTS.md is a team file, readable by others: %v %v", fi, err)
	}

	// Without the Cursor directory or Copilot's file, only the two (and
	// .mcp.json).
	m2 := newMachine(t)
	ts, err := PlanRequest(context.Background(), m2.sys, m2.snap, Request{Project: newProject(t, m2, "r")})
	if err != nil || len(ts) != 5 || ts[4].Path != filepath.Join(m2.home, "r", MCPFile) || ts[0].Agent != "claude" || ts[1].Path != filepath.Join(m2.home, "r", ".claude", HookFile) || ts[2].Agent != "codex" ||
		ts[3].Path != filepath.Join(m2.home, "r", ".codex", CodexHookFile) {
		t.Fatalf("bare project: %+v %v", ts, err)
	}
	// An agent with no project file cannot be asked for there.
	m2.sys.AgentTable = append(agents.Default(), agents.Agent{Name: "useronly", DefaultDir: ".u", UserFile: "U.md", Format: agents.FormatBlock})
	if _, err := PlanRequest(context.Background(), m2.sys, m2.snap, Request{Project: newProject(t, m2, "r"), Agents: []string{"useronly"}}); core.ErrorCode(err) != core.CodeUnknownAgent {
		t.Errorf("user-only agent at project level: %v", err)
	}
}

// A malformed .mcp.json stops the plan: nothing is written.
func TestPlanProjectMCPError(t *testing.T) {
	m := newMachine(t)
	proj := newProject(t, m, "repo")
	m.write(t, "repo/.mcp.json", "{\n  \"mcpServers\": [\n")
	_, err := PlanRequest(context.Background(), m.sys, m.snap, Request{Project: proj})
	var me *MCPJSONError
	if !errors.As(err, &me) || me.Line != 3 || !strings.Contains(err.Error(), ".mcp.json") {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(m.path("repo/CLAUDE.md")); !os.IsNotExist(err) {
		t.Error("CLAUDE.md was written")
	}
}

// A test-only entry in the table is all it takes: --agent accepts it, the
// default selection finds its directory, the report lists it, and the
// inventory (doctor's view) shows its targets.
func TestTableEntryIsEnough(t *testing.T) {
	m := newMachine(t)
	m.sys.AgentTable = append(agents.Default(), agents.Agent{Name: "zork", DefaultDir: ".zork", UserFile: "ZORK.md", ProjectFile: "ZORK.md", Format: agents.FormatBlock})
	m.mkdir(t, ".zork")
	ts, err := Plan(context.Background(), m.sys, m.snap, nil)
	if err != nil || len(ts) != 1 || ts[0].Path != m.path(".zork/ZORK.md") {
		t.Fatalf("default selection: %+v %v", ts, err)
	}
	if ts, err = Plan(context.Background(), m.sys, m.snap, []string{"zork"}); err != nil || len(ts) != 1 {
		t.Fatalf("--agent zed: %+v %v", ts, err)
	}
	doc, _ := json.Marshal(NewReport(m.sys, Status(ts)))
	if !strings.Contains(string(doc), `"zed","warp","goose","crush","droid","jules","zork"]`) || !strings.Contains(string(doc), `"agent":"zork"`) {
		t.Errorf("report %s", doc)
	}
	inv, err := Inventory(m.sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	last := inv[len(inv)-1]
	if last.Name != "zork" || last.UserPath != m.path(".zork/ZORK.md") || last.UserExists || last.ProjectPath != "ZORK.md" {
		t.Errorf("inventory %+v", last)
	}
}
