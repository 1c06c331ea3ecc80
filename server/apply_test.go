package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/projection"
	"github.com/agentkit/charter/core/settings"
)

// applyTargets are the instruction files of a report; Claude's
// settings.json and Codex's hooks.json (charter's Stop hook) have tests of
// their own.
func applyTargets(t *testing.T, rp reply) []apply.Result {
	t.Helper()
	var out []apply.Result
	for _, r := range allTargets(t, rp) {
		if b := filepath.Base(r.Path); b != apply.HookFile && b != apply.CodexHookFile {
			out = append(out, r)
		}
	}
	return out
}

func allTargets(t *testing.T, rp reply) []apply.Result {
	t.Helper()
	var doc struct{ Targets []apply.Result }
	if err := json.Unmarshal(rp.body, &doc); err != nil {
		t.Fatalf("%v: %s", err, rp.body)
	}
	return doc.Targets
}

func TestApply(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(filepath.Join(e.home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(e.home, ".claude", "CLAUDE.md")
	r := e.start(t, 0)

	rp := r.do("GET", "api/v1/apply", "")
	got := applyTargets(t, rp)
	if rp.status != 200 || len(got) != 1 || got[0].Agent != "claude" || got[0].Path != file ||
		got[0].State != apply.StateOutdated || !strings.HasPrefix(got[0].Diff, "--- /dev/null\n") {
		t.Fatalf("GET: %d %s", rp.status, rp.body)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatal("GET wrote the file")
	}

	rp = r.do("POST", "api/v1/apply", `{}`)
	if got := applyTargets(t, rp); rp.status != 200 || len(got) != 1 || got[0].State != apply.StateWritten || got[0].Diff != "" {
		t.Fatalf("POST: %d %s", rp.status, rp.body)
	}
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), "Managed by charter for the host scope") {
		t.Fatalf("file: %v\n%s", err, data)
	}

	rp = r.do("GET", "api/v1/apply?agent=claude", "")
	if got := applyTargets(t, rp); rp.status != 200 || got[0].State != apply.StateCurrent {
		t.Fatalf("GET after POST: %d %s", rp.status, rp.body)
	}
	rp = r.do("GET", "api/v1/apply?agent=codex,claude", "")
	if got := applyTargets(t, rp); rp.status != 200 || len(got) != 2 || got[1].Agent != "codex" || got[1].State != apply.StateOutdated {
		t.Fatalf("GET two agents: %d %s", rp.status, rp.body)
	}
}

func TestApplyErrors(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	for _, tt := range []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"GET", "api/v1/apply", "", 422, "no_agent"},
		{"POST", "api/v1/apply", `{}`, 422, "no_agent"},
		{"POST", "api/v1/apply", `{"agents":["zork"]}`, 422, "unknown_agent"},
		{"POST", "api/v1/apply", `{"agents":["jules"]}`, 422, "unknown_agent"},
		{"POST", "api/v1/apply", `{"agents":"claude"}`, 422, "invalid_request"},
		{"POST", "api/v1/apply", `{"agents":[`, 400, "invalid_json"},
		{"PUT", "api/v1/apply", `{}`, 405, "method_not_allowed"},
	} {
		rp := r.do(tt.method, tt.path, tt.body)
		if rp.status != tt.status || rp.errCode(t) != tt.code {
			t.Errorf("%s %s %s: %d %s, want %d %s", tt.method, tt.path, tt.body, rp.status, rp.body, tt.status, tt.code)
		}
	}

	file := filepath.Join(e.home, ".claude", "CLAUDE.md")
	bad := "<!-- charter:end -->\n"
	os.MkdirAll(filepath.Dir(file), 0o755)
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	rp := r.do("POST", "api/v1/apply", `{}`)
	if rp.status != 409 || rp.errCode(t) != "malformed_markers" || !strings.Contains(string(rp.body), "end at line 1 has no begin") {
		t.Fatalf("bad markers: %d %s", rp.status, rp.body)
	}
	if data, _ := os.ReadFile(file); string(data) != bad {
		t.Error("a file with broken markers was written")
	}
}

// The served project's files over HTTP: GET ?project=true reports them,
// POST {"project":true} writes them and registers charter in .mcp.json,
// keeping the other servers. Without a project it is a 422 naming the fix.
func TestApplyProject(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	if rp := r.do("GET", "api/v1/apply?project=true", ""); rp.status != 422 || !strings.Contains(string(rp.body), "--project-dir") {
		t.Fatalf("no project: %d %s", rp.status, rp.body)
	}
	r.stop()

	repo := filepath.Join(e.dir, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".charter"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := "{\n  \"mcpServers\": {\n    \"other\": {\"command\": \"x\"}\n  }\n}\n"
	if err := os.WriteFile(filepath.Join(repo, ".mcp.json"), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	r, _ = e.startProject(t, repo)
	rp := r.do("GET", "api/v1/apply?project=true", "")
	got := applyTargets(t, rp)
	if rp.status != 200 || len(got) != 3 || got[0].Agent != "claude" || got[0].Level != apply.LevelProject ||
		got[0].Path != filepath.Join(repo, "CLAUDE.md") || got[2].Agent != apply.MCPTarget || got[2].State != apply.StateOutdated {
		t.Fatalf("GET: %d %s", rp.status, rp.body)
	}
	rp = r.do("POST", "api/v1/apply", `{"project":true}`)
	if got := applyTargets(t, rp); rp.status != 200 || len(got) != 3 || got[2].State != apply.StateWritten {
		t.Fatalf("POST: %d %s", rp.status, rp.body)
	}
	data, err := os.ReadFile(filepath.Join(repo, ".mcp.json"))
	if err != nil || !strings.Contains(string(data), `"other": {"command": "x"}`) || !strings.Contains(string(data), `"charter"`) {
		t.Fatalf(".mcp.json: %v\n%s", err, data)
	}
	if rp := r.do("GET", "api/v1/apply?project=maybe", ""); rp.status != 422 {
		t.Errorf("bad project parameter: %d %s", rp.status, rp.body)
	}
}

// The hub reads agent names from the report: a test-only entry in the
// table shows up there, and ?agent= accepts it.
func TestApplyListsTableAgents(t *testing.T) {
	e := newEnv(t)
	e.sys.AgentTable = append(agents.Default(), agents.Agent{Name: "zork", DefaultDir: ".zork", UserFile: "ZORK.md", Format: agents.FormatBlock})
	r := e.start(t, 0)
	rp := r.do("GET", "api/v1/apply?agent=zork", "")
	var doc apply.Report
	if err := json.Unmarshal(rp.body, &doc); err != nil || rp.status != 200 {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	if doc.Agents[len(doc.Agents)-1] != "zork" || len(doc.Targets) != 1 || doc.Targets[0].Path != filepath.Join(e.home, ".zork", "ZORK.md") {
		t.Errorf("report %s", rp.body)
	}
}

// The Claude settings.json with charter's Stop hook is a target of its own:
// GET shows its diff, POST writes it, and without a required gate POST
// takes charter's entry out again.
func TestApplyHookTarget(t *testing.T) {
	e := newEnv(t)
	claude := filepath.Join(e.home, ".claude")
	if err := os.MkdirAll(claude, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(claude, apply.HookFile)
	mine := "{\n  \"model\": \"opus\"\n}\n"
	if err := os.WriteFile(file, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.start(t, 0)
	got := allTargets(t, r.do("GET", "api/v1/apply", ""))
	if len(got) != 2 || got[1].Path != file || got[1].State != apply.StateOutdated || !strings.Contains(got[1].Diff, "gate hook claude-stop") {
		t.Fatalf("GET: %+v", got)
	}
	got = allTargets(t, r.do("POST", "api/v1/apply", `{}`))
	data, _ := os.ReadFile(file)
	if len(got) != 2 || got[1].State != apply.StateWritten || !strings.Contains(string(data), "--config-root "+filepath.Join(e.dir, "root")+" gate hook claude-stop") {
		t.Fatalf("POST: %+v\n%s", got, data)
	}
	if _, err := settings.New(e.sys, e.scope).Write(settings.Update{Set: map[string]any{"gates.tests.required": false, "gates.lint.required": false}}); err != nil {
		t.Fatal(err)
	}
	r.do("POST", "api/v1/apply", `{}`)
	if data, _ := os.ReadFile(file); string(data) != mine {
		t.Errorf("after the gates were turned off:\n%s", data)
	}
}

// The user-level files serve every project: a POST without project renders
// the settings without the served project's layers, one with project
// renders them with.
func TestApplyUserLevelLeavesProjectOut(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(filepath.Join(e.home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(e.dir, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".charter"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".charter", "settings.yaml"), []byte("worktrees:\n  mode: on\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, _ := e.startProject(t, repo)
	for _, tc := range []struct {
		body, file, tier string
	}{
		{`{"agents":["claude"]}`, filepath.Join(e.home, ".claude", "CLAUDE.md"), "ask"},
		{`{"agents":["claude"],"project":true}`, filepath.Join(repo, "CLAUDE.md"), "on"},
	} {
		if rp := r.do("POST", "api/v1/apply", tc.body); rp.status != 200 {
			t.Fatalf("POST %s: %d %s", tc.body, rp.status, rp.body)
		}
		data, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if want := "Worktrees: **" + tc.tier + "**"; !strings.Contains(string(data), want) {
			t.Errorf("POST %s: %s lacks %q:\n%s", tc.body, tc.file, want, data)
		}
	}
}

// The project-only agents over HTTP, as the hub's project part uses them:
// GET ?project=true lists gemini, cursor and copilot beside CLAUDE.md and
// AGENTS.md when their files (for cursor, its rules folder) are in the
// project; POST writes them, cursor's as a whole rules file with the
// frontmatter, the others as a block after the user's text; then each is
// current, and a second POST writes nothing.
func TestApplyProjectAgents(t *testing.T) {
	e := newEnv(t)
	repo := filepath.Join(e.dir, "repo")
	for _, d := range []string{".charter", ".cursor/rules", ".github"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mine := map[string]string{
		"gemini":  "# Gemini notes\n\nPrefer small diffs.\n",
		"copilot": "# Copilot notes\n\nUse tabs.\n",
	}
	paths := map[string]string{
		"gemini":  filepath.Join(repo, "GEMINI.md"),
		"cursor":  filepath.Join(repo, ".cursor", "rules", "charter.mdc"),
		"copilot": filepath.Join(repo, ".github", "copilot-instructions.md"),
	}
	for agent, text := range mine {
		if err := os.WriteFile(paths[agent], []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, _ := e.startProject(t, repo)

	// byAgent keeps the first file of each agent in a report: its
	// instruction file.
	byAgent := func(rp reply) map[string]apply.Result {
		t.Helper()
		if rp.status != 200 {
			t.Fatalf("%d %s", rp.status, rp.body)
		}
		out := map[string]apply.Result{}
		for _, res := range applyTargets(t, rp) {
			if res.Level != apply.LevelProject {
				t.Errorf("%s: level %q", res.Path, res.Level)
			}
			if _, ok := out[res.Agent]; !ok {
				out[res.Agent] = res
			}
		}
		return out
	}

	// Every agent by default, placed so that each reads the block once:
	// Cursor and Copilot read Codex's AGENTS.md (skipped, with the reason),
	// Claude's block goes to .claude/CLAUDE.md (Copilot reads CLAUDE.md),
	// Gemini's GEMINI.md imports .gemini/charter.md (Copilot reads GEMINI.md
	// as text).
	got := byAgent(r.do("GET", "api/v1/apply?project=true", ""))
	want := map[string]string{"claude": apply.StateOutdated, "codex": apply.StateOutdated, "gemini": apply.StateOutdated,
		"cursor": apply.StateSkipped, "copilot": apply.StateSkipped, apply.MCPTarget: apply.StateOutdated}
	for agent, state := range want {
		if got[agent].State != state {
			t.Errorf("GET: %s is %+v, want %s", agent, got[agent], state)
		}
	}
	if got["claude"].Path != filepath.Join(repo, ".claude", "CLAUDE.md") || got["gemini"].Path != paths["gemini"] || got["gemini"].Diff == "" {
		t.Errorf("GET: claude %s, gemini %+v", got["claude"].Path, got["gemini"])
	}
	if !strings.Contains(got["copilot"].Reason, "AGENTS.md") {
		t.Errorf("GET: copilot skipped without naming AGENTS.md: %q", got["copilot"].Reason)
	}
	if _, err := os.Stat(paths["cursor"]); !os.IsNotExist(err) {
		t.Error("GET wrote charter.mdc")
	}

	// Gemini and Cursor alone read none of each other's files: each gets
	// its own, the text around the block kept.
	const two = `{"project":true,"agents":["gemini","cursor"]}`
	got = byAgent(r.do("POST", "api/v1/apply", two))
	if _, ok := got["claude"]; ok || len(got) != 3 {
		t.Errorf("POST %s wrote %d targets: %+v", two, len(got), got)
	}
	for _, agent := range []string{"gemini", "cursor"} {
		if got[agent].State != apply.StateWritten || got[agent].Path != paths[agent] {
			t.Errorf("POST: %s is %+v, want written at %s", agent, got[agent], paths[agent])
		}
	}
	mdc, _ := os.ReadFile(paths["cursor"])
	if !strings.HasPrefix(string(mdc), "---\ndescription: ") || !strings.Contains(string(mdc), "\nalwaysApply: true\n---\n"+apply.BeginMarker+"\n") ||
		!strings.HasSuffix(string(mdc), apply.EndMarker+"\n") || !strings.Contains(string(mdc), "Managed by charter for this project.") {
		t.Errorf("charter.mdc:\n%s", mdc)
	}
	if data, _ := os.ReadFile(paths["gemini"]); !strings.HasPrefix(string(data), mine["gemini"]+"\n"+apply.BeginMarker+"\n") || !strings.Contains(string(data), "charter apply --project") {
		t.Errorf("%s after POST:\n%s", paths["gemini"], data)
	}
	if data, _ := os.ReadFile(paths["copilot"]); string(data) != mine["copilot"] {
		t.Errorf("copilot's file changed by a POST for gemini and cursor:\n%s", data)
	}

	got = byAgent(r.do("GET", "api/v1/apply?project=true&agent=gemini&agent=cursor", ""))
	for _, agent := range []string{"gemini", "cursor"} {
		if got[agent].State != apply.StateCurrent || got[agent].Diff != "" {
			t.Errorf("GET after POST: %s is %+v, want current", agent, got[agent])
		}
	}
	got = byAgent(r.do("POST", "api/v1/apply", two))
	for _, agent := range []string{"gemini", "cursor"} {
		if got[agent].State != apply.StateCurrent {
			t.Errorf("second POST: %s is %q, want current", agent, got[agent].State)
		}
	}
	// A user-level request does not know a project-only agent (Jules).
	if rp := r.do("POST", "api/v1/apply", `{"agents":["jules"]}`); rp.status != 422 || rp.errCode(t) != "unknown_agent" || !strings.Contains(string(rp.body), "--project") {
		t.Errorf("jules at user level: %d %s", rp.status, rp.body)
	}
}

// The hub plans as the CLI does: GET and POST carry each projected file
// with its state and the budget per agent (charter apply --json's files
// and budget), and POST writes the content with the instruction files.
func TestApplyContent(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(filepath.Join(e.home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	rule := filepath.Join(e.scope.Path, "rules", "tests-first.md")
	coretest.WriteFile(t, rule, "---\ndescription: Write the test first.\n---\nWrite the failing test first.\n")
	r := e.start(t, 0)
	var doc struct {
		Files  []projection.Entry
		Budget []apply.Budget
	}
	target := filepath.Join(e.home, ".claude", "rules", "tests-first.md")
	for _, step := range []struct{ method, body, state string }{
		{"GET", "", projection.StateMissing},
		{"POST", `{"agents":["claude"]}`, projection.StateWritten},
		{"GET", "", projection.StateCurrent},
	} {
		rp := r.do(step.method, "api/v1/apply?agent=claude", step.body)
		if err := json.Unmarshal(rp.body, &doc); err != nil || rp.status != 200 {
			t.Fatalf("%s: %d %s", step.method, rp.status, rp.body)
		}
		if len(doc.Files) != 1 || doc.Files[0].Kind != "rule" || doc.Files[0].Item != "tests-first" || *doc.Files[0].Path != target ||
			doc.Files[0].State != step.state || len(doc.Budget) != 1 || doc.Budget[0].Agent != "claude" || doc.Budget[0].Bytes == 0 {
			t.Errorf("%s: %s", step.method, rp.body)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(e.home, ".claude", "CLAUDE.md")); !strings.Contains(string(data), "1 charter rule is active, in its own file in `"+filepath.Join(e.home, ".claude", "rules")+"/`") {
		t.Errorf("the block does not name the rule:\n%s", data)
	}
}
