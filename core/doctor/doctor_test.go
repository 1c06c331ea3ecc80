package doctor_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/doctor"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/session"
	"github.com/agentkit/charter/core/settings"
)

func byName(rep doctor.Report) map[string]doctor.Check {
	m := map[string]doctor.Check{}
	for _, c := range rep.Checks {
		m[c.Name] = c
	}
	return m
}

// tree lists every path under dir with its mode, and a file's size and
// time (a directory's time changes with the probe of whether it can be
// written).
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, _ := d.Info()
		line := p + " " + fi.Mode().String()
		if !d.IsDir() {
			line += fmt.Sprintf(" %d %s", fi.Size(), fi.ModTime())
		}
		out = append(out, line)
		return nil
	})
	return out
}

func TestRunOrderAndNothingWritten(t *testing.T) {
	m := coretest.New(t)
	sys, home := m.Sys, m.Home
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	before := tree(t, home)
	rep := runAll(env{Sys: sys, Version: "1.2.3", Server: func(*core.System, core.Scope) doctor.ServerState { return doctor.ServerState{} }})
	if after := tree(t, home); !slices.Equal(before, after) {
		t.Errorf("doctor changed the home:\nbefore %v\nafter  %v", before, after)
	}
	var names []string
	for _, c := range rep.Checks {
		names = append(names, c.Name)
		if (c.Status == doctor.OK) != (c.Fix == "") {
			t.Errorf("%s: status %s with fix %q: a fix belongs to every line that is not ok, and only to those", c.Name, c.Status, c.Fix)
		}
	}
	want := []string{"companion", "profile", "config-root", "scope", "project", "settings", "policy", "content", "sources", "shared-links", "server", "agent-file:claude", "agent-file:claude"}
	if !slices.Equal(names, want) {
		t.Errorf("checks %v, want %v", names, want)
	}
	if !rep.OK || rep.Failed() != 0 {
		t.Errorf("ok %v, %d failed", rep.OK, rep.Failed())
	}
	if c := byName(rep)["agent-file:claude"]; c.Status != doctor.Warn || !strings.Contains(c.Message, "not written yet") {
		t.Errorf("agent file: %+v", c)
	}
	if c := byName(rep)["config-root"]; !strings.HasSuffix(c.Message, "created on the first write") {
		t.Errorf("config root: %+v", c)
	}
}

func TestServerStates(t *testing.T) {
	m := coretest.New(t)
	sys := m.Sys
	for _, tc := range []struct {
		st     doctor.ServerState
		status string
		msg    string
	}{
		{doctor.ServerState{}, doctor.OK, "not running"},
		{doctor.ServerState{Discovery: "/d.json", Stale: "pid 7 is not running"}, doctor.Warn, "/d.json is stale: pid 7 is not running"},
		{doctor.ServerState{Running: true, URL: "http://127.0.0.1:41000/", PID: 9}, doctor.OK, "running at http://127.0.0.1:41000/ (pid 9)"},
	} {
		rep := runAll(env{Sys: sys, Server: func(*core.System, core.Scope) doctor.ServerState { return tc.st }})
		c := byName(rep)["server"]
		if c.Status != tc.status || !strings.Contains(c.Message, tc.msg) {
			t.Errorf("%+v: %+v", tc.st, c)
		}
	}
	// Without a probe the session asks its Hub; without either there is
	// no server line (the servers are the HTTP skin's to find).
	if c, ok := byName(runAll(env{Sys: sys}))["server"]; ok {
		t.Errorf("a server line without a probe or a hub: %+v", c)
	}
	hub := session.New(sys, session.Options{Hub: fakeHub{session.ServerState{Running: true, URL: "http://127.0.0.1:41001/", PID: 4}}})
	if c := byName(runAll(env{Session: hub}))["server"]; c.Status != doctor.OK || !strings.Contains(c.Message, "running at http://127.0.0.1:41001/ (pid 4)") {
		t.Errorf("the session's hub, a server running: %+v", c)
	}
}

func TestUnwritableRoot(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	m := coretest.New(t)
	sys, home := m.Sys, m.Home
	root := filepath.Join(home, "root")
	if err := os.MkdirAll(root, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(root, 0o700) })
	rep := runAll(env{Session: session.New(sys, session.Options{RootFlag: &root})})
	c := byName(rep)["config-root"]
	if c.Status != doctor.Fail || !strings.Contains(c.Message, "cannot be written") || rep.OK {
		t.Errorf("config root %+v, report ok %v", c, rep.OK)
	}
}

func TestRootIsAFile(t *testing.T) {
	m := coretest.New(t)
	sys, home := m.Sys, m.Home
	file := filepath.Join(home, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(file, "root")
	rep := runAll(env{Session: session.New(sys, session.Options{RootFlag: &root})})
	c := byName(rep)["config-root"]
	if c.Status != doctor.Fail || rep.OK {
		t.Errorf("config root %+v, report ok %v", c, rep.OK)
	}
	// The checks that need the scope say they did not run, and do not fail.
	for _, n := range []string{"settings", "agent-files"} {
		if c := byName(rep)[n]; c.Status == doctor.Fail {
			t.Errorf("%s fails too: %+v", n, c)
		}
	}
}

// The project and the policy have lines of their own, and their files are
// checked as the scope's is; a malformed one fails, naming file and line.
func TestProjectAndPolicy(t *testing.T) {
	m := coretest.New(t)
	sys, home := m.Sys, m.Home
	repo := filepath.Join(home, "..", "repo")
	repo = filepath.Clean(repo)
	shared := filepath.Join(repo, ".charter", "settings.yaml")
	local := filepath.Join(repo, ".charter", "settings.local.yaml")
	coretest.WriteFile(t, shared, "rules:\n  tier: full\n")
	coretest.WriteFile(t, local, "# mine\nrules:\n  tier: extreme\n")
	policy := m.PolicyFile
	rep := byName(runAll(env{Session: session.New(sys, session.Options{ProjectDir: &repo})}))
	if c := rep["project"]; c.Status != doctor.OK || c.Message != repo+" (from --project-dir): "+filepath.Join(".charter", "settings.yaml")+", "+filepath.Join(".charter", "settings.local.yaml") {
		t.Errorf("project: %+v", c)
	}
	if c := rep["project-settings"]; c.Status != doctor.OK || c.Message != shared+" is valid" {
		t.Errorf("project settings: %+v", c)
	}
	if c := rep["project-local-settings"]; c.Status != doctor.Fail || !strings.Contains(c.Message, local+":3: rules.tier") || !strings.Contains(c.Fix, "--local") {
		t.Errorf("project local settings: %+v", c)
	}
	if c := rep["policy"]; c.Status != doctor.OK || c.Message != "no policy ("+policy+" does not exist)" {
		t.Errorf("no policy: %+v", c)
	}

	coretest.WriteFile(t, policy, "lock:\n  rules.tier: full\nminimun:\n  gates.coverage.min: 80\n")
	full := runAll(env{Sys: sys})
	rep = byName(full)
	if c := rep["policy"]; c.Status != doctor.Fail || !strings.Contains(c.Message, policy+":3: ") || c.Fix == "" {
		t.Errorf("malformed policy: %+v", c)
	}
	if c := rep["agent-files"]; c.Status != doctor.Warn || !strings.Contains(c.Message, "policy cannot be read") {
		t.Errorf("agent files under a malformed policy: %+v", c)
	}
	if c := rep["project"]; c.Status != doctor.OK || c.Message != "no project: only your own settings apply (a project holds .charter/settings.yaml or .charter/settings.local.yaml)" {
		t.Errorf("no project: %+v", c)
	}
	if full.OK {
		t.Error("a malformed policy passed")
	}

	coretest.WriteFile(t, policy, "lock:\n  rules.tier: full\nminimum:\n  gates.coverage.min: 80\n")
	if c := byName(runAll(env{Sys: sys}))["policy"]; c.Status != doctor.OK || c.Message != policy+" is valid; it rules 2 keys" {
		t.Errorf("valid policy: %+v", c)
	}
	missing := filepath.Join(home, "nowhere")
	rep = byName(runAll(env{Session: session.New(sys, session.Options{ProjectDir: &missing})}))
	if c := rep["project"]; c.Status != doctor.Fail || !strings.Contains(c.Message, missing) {
		t.Errorf("missing project dir: %+v", c)
	}
}

// zed is an agent only this test knows: doctor must learn of it from the
// System's agent table alone.
var zed = agents.Agent{Name: "zork", Provider: "zork", DirVar: "ZED_HOME", DefaultDir: ".zork",
	UserFile: "ZORK.md", ProjectFile: "ZORK.md", Format: agents.FormatBlock}

func withZed(sys *core.System) *core.System {
	sys.AgentTable = append(agents.Default(), zed)
	return sys
}

// An entry added to the agent table is all doctor needs: the profile line
// names its variable, a profile chosen by that variable is found, its
// user-level file (where its variable points) is checked, missing or
// written, and a shared link on the way to it is reported.
func TestAgentTableEntry(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "zed-home")
	file := filepath.Join(dir, "ZORK.md")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}

	// The default table knows nothing of it.
	m := coretest.New(t, coretest.Env("ZED_HOME="+dir))
	sys, home := m.Sys, m.Home
	rep := byName(runAll(env{Sys: sys}))
	if _, ok := rep["agent-file:zork"]; ok || strings.Contains(rep["profile"].Message, "ZED_HOME") {
		t.Fatalf("zed is known without its table entry: %+v", rep)
	}

	// Missing: its directory is there (so apply would pick it), its file not.
	withZed(sys)
	rep = byName(runAll(env{Sys: sys}))
	if c := rep["profile"]; !strings.HasPrefix(c.Message, "none active (no CLAUDE_CONFIG_DIR, CODEX_HOME, COPILOT_HOME, ") ||
		!strings.HasSuffix(c.Message, ", ZED_HOME or other *_CONFIG_DIR points into "+filepath.Join(home, ".agent-switch")+")") {
		t.Errorf("profile: %+v", c)
	}
	if c := rep["agent-file:zork"]; c.Status != doctor.Warn || c.Message != file+" is not written yet: the agent does not know these settings" {
		t.Errorf("zed's missing file: %+v", c)
	}

	// Found: written as `charter apply --agent zork` writes it.
	scope, err := profile.ResolveScope(sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := settings.Open(sys, scope, nil, nil).Read()
	if err != nil {
		t.Fatal(err)
	}
	targets, err := apply.Plan(context.Background(), sys, snap, []string{"zork"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := apply.Run(context.Background(), sys, targets, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("apply did not write zed's file: %v", err)
	}
	if c := byName(runAll(env{Sys: sys}))["agent-file:zork"]; c.Status != doctor.OK || c.Message != file+" is up to date" {
		t.Errorf("zed's written file: %+v", c)
	}

	// A profile chosen by ZED_HOME: named, with the variable, and its file
	// is the profile's; a link there that agent-switch shares is reported.
	config := filepath.Join(home, ".agent-switch", "zork", "work", "config")
	shared := filepath.Join(home, ".agent-switch", "shared", "ZORK.md")
	for _, d := range []string{config, filepath.Dir(shared)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	sys = withZed(coretest.New(t, coretest.Home(home), coretest.Env("ZED_HOME="+config)).Sys)
	rep = byName(runAll(env{Sys: sys}))
	if c := rep["profile"]; c.Message != "zork/work, chosen by ZED_HOME="+config {
		t.Errorf("profile: %+v", c)
	}
	if c := rep["agent-file:zork"]; c.Status != doctor.Warn || c.Message != filepath.Join(config, "ZORK.md")+" is not written yet: the agent does not know these settings" {
		t.Errorf("zed's file in its profile: %+v", c)
	}
	if err := os.Symlink(shared, filepath.Join(config, "ZORK.md")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if c := byName(runAll(env{Sys: sys}))["shared-links:agent-file-zork"]; c.Status != doctor.Warn || !strings.HasPrefix(c.Message, filepath.Join(config, "ZORK.md")+" (agent file zork) is a link agent-switch shares") {
		t.Errorf("shared link to zed's file: %+v", c)
	}
}

// A project's files are checked when they exist, and only then; one that
// apply --project cannot edit is a warning, since charter works without it.
func TestProjectFiles(t *testing.T) {
	m := coretest.New(t)
	sys, home := m.Sys, m.Home
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(filepath.Dir(home), "repo")
	write := func(rel, text string) { coretest.WriteFile(t, filepath.Join(repo, rel), text) }
	write(filepath.Join(".charter", "settings.yaml"), "rules:\n  tier: full\n")
	run := func() (doctor.Report, map[string]doctor.Check) {
		// A new session each time, as each `charter doctor` is.
		rep := runAll(env{Session: session.New(sys, session.Options{ProjectDir: &repo})})
		return rep, byName(rep)
	}

	rep, checks := run()
	if c := checks["project-files"]; c.Status != doctor.OK || !strings.HasPrefix(c.Message, "no agent file in the project yet") {
		t.Errorf("a project without agent files: %+v", c)
	}
	for _, c := range rep.Checks {
		if strings.HasSuffix(c.Name, ":project") {
			t.Errorf("a line for a file the project does not have: %+v", c)
		}
	}

	// Another server's .mcp.json: charter's entry is missing.
	write(".mcp.json", `{"mcpServers":{"other":{"command":"other"}}}`+"\n")
	_, checks = run()
	if c := checks["agent-file:mcp:project"]; c.Status != doctor.Warn || c.Message != filepath.Join(repo, ".mcp.json")+" is out of date: it lacks charter's current MCP server entry" || !strings.Contains(c.Fix, "charter apply --project") {
		t.Errorf(".mcp.json without charter's entry: %+v", c)
	}
	if _, ok := checks["project-files"]; ok {
		t.Error("the no-file line beside a file's line")
	}

	// Broken markers: apply --project would refuse; a warning, no failure.
	write("CLAUDE.md", "# notes\n<!-- charter:begin -->\nno end\n")
	rep, checks = run()
	if c := checks["project-files"]; c.Status != doctor.Warn || !strings.Contains(c.Message, filepath.Join(repo, "CLAUDE.md")) || !strings.Contains(c.Fix, "charter apply --project") || !rep.OK {
		t.Errorf("broken markers: %+v (report ok %v)", c, rep.OK)
	}
	if err := os.Remove(filepath.Join(repo, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}

	// The project's settings cannot be read: its files are not checked,
	// and the settings' own line says why. (The personal settings.local.yaml
	// is not what apply --project renders from.)
	write(filepath.Join(".charter", "settings.yaml"), "rules:\n  tier: extreme\n")
	_, checks = run()
	if c := checks["project-files"]; c.Status != doctor.Warn || !strings.HasPrefix(c.Message, "not checked: the project's settings") {
		t.Errorf("unreadable project settings: %+v", c)
	}
	if c := checks["agent-file:claude"]; c.Status == doctor.Fail || strings.HasPrefix(c.Message, "not checked") {
		t.Errorf("the user-level file is not checked for the project's sake: %+v", c)
	}

	// Without the project (--no-project), none of its files has a line.
	for _, c := range runAll(env{Sys: sys}).Checks {
		if c.Name == "project-files" || strings.HasSuffix(c.Name, ":project") {
			t.Errorf("a project line without a project: %+v", c)
		}
	}
}

// Content apply has not projected yet is out of date, and an agent whose
// always-loaded instructions pass its documented limit fails doctor:
// Codex would silently read only the first 32 KiB of AGENTS.md.
func TestContentAndBudget(t *testing.T) {
	m := coretest.New(t)
	sys := m.Sys
	if err := os.MkdirAll(filepath.Join(m.Home, ".codex"), 0o700); err != nil {
		t.Fatal(err)
	}
	sc, err := profile.ResolveScope(sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	coretest.WriteFile(t, filepath.Join(sc.Path, "skills", "review", "SKILL.md"), "---\nname: review\ndescription: Review the diff.\n---\nReview it.\n")
	coretest.WriteFile(t, filepath.Join(sc.Path, "rules", "small.md"), "Keep functions short.\n")
	rep := runAll(env{Sys: sys})
	checks := byName(rep)
	if c := checks["projection"]; c.Status != doctor.Warn || !strings.Contains(c.Message, "1 of 1 projected files out of date") || !strings.Contains(c.Fix, "charter apply") {
		t.Errorf("unprojected content: %+v", c)
	}
	if _, ok := checks["budget:codex"]; ok || !rep.OK {
		t.Errorf("a small rule passes no budget: %+v", checks["budget:codex"])
	}

	coretest.WriteFile(t, filepath.Join(sc.Path, "rules", "huge.md"), strings.Repeat("Say it plainly, every time.\n", 1300))
	rep = runAll(env{Sys: sys})
	if c := byName(rep)["budget:codex"]; c.Status != doctor.Fail || !strings.Contains(c.Message, "over its documented limit of 32768") || rep.OK {
		t.Errorf("over Codex's limit: %+v (report ok %v)", c, rep.OK)
	}
}

// fakeHub is a Hub whose probe reports st.
type fakeHub struct{ st session.ServerState }

func (h fakeHub) Ping(context.Context, *core.System, core.Scope) (session.ServerPing, error) {
	return session.ServerPing{}, nil
}
func (h fakeHub) Probe(*core.System, core.Scope) session.ServerState { return h.st }
