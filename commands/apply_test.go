package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/coretest"
)

// sharedProfile is a claude profile whose CLAUDE.md links to a file all
// profiles share; it returns the environment, the link and the shared file.
func sharedProfile(t *testing.T) (environ []string, link, shared string) {
	home := t.TempDir()
	dir := filepath.Join(home, ".agent-switch", "claude", "work", "config")
	shared = filepath.Join(home, ".agent-switch", "shared", "CLAUDE.md")
	os.MkdirAll(dir, 0o755)
	os.MkdirAll(filepath.Dir(shared), 0o755)
	os.WriteFile(shared, []byte("# shared\n"), 0o644)
	link = filepath.Join(dir, "CLAUDE.md")
	if err := os.Symlink(shared, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	return []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + dir}, link, shared
}

func runApply(t *testing.T, environ []string, stdin string, interactive bool, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	args = append([]string{"apply"}, args...)
	environ = coretest.New(t, coretest.Env(environ...)).Environ()
	app := newApp(Build{Version: "t"}, strings.NewReader(stdin), &out, &errb, environ, afero.NewOsFs(), args)
	app.Interactive = func() bool { return interactive }
	code := int(app.run(context.Background(), args))
	return run{code, out.String(), errb.String()}
}

func TestApplyPromptCancel(t *testing.T) {
	env, _, shared := sharedProfile(t)
	r := runApply(t, env, "2\n", true)
	if r.code != 4 || !strings.Contains(r.stderr, "1) Write (affects all profiles)") || !strings.Contains(r.stderr, "cancelled") {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "claude  blocked ") {
		t.Errorf("stdout %q", r.stdout)
	}
	if got, _ := os.ReadFile(shared); string(got) != "# shared\n" {
		t.Errorf("cancel wrote %q", got)
	}
}

func TestApplyPromptWrite(t *testing.T) {
	env, link, shared := sharedProfile(t)
	r := runApply(t, env, "1\n", true)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "claude  written ") {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
	}
	if got, _ := os.ReadFile(shared); !strings.HasPrefix(string(got), "# shared\n\n<!-- charter:begin -->\n") {
		t.Errorf("shared file %q", got)
	}
	if dest, _ := os.Readlink(link); dest != shared {
		t.Errorf("link now points to %q", dest)
	}
}

// Blocked with --json: the report is the one document, the exit is 4.
func TestApplyBlockedJSONIsOneDocument(t *testing.T) {
	env, link, _ := sharedProfile(t)
	r := runApply(t, env, "", false, "--json")
	var doc struct {
		Targets []struct{ Agent, State, SharedPath string }
	}
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	if err := dec.Decode(&doc); err != nil || dec.More() {
		t.Fatalf("stdout is not one document: %v\n%s", err, r.stdout)
	}
	// The shared CLAUDE.md is blocked, so nothing is written: the
	// profile's own settings.json (charter's Stop hook) stays as it was.
	if r.code != 4 || len(doc.Targets) != 2 || doc.Targets[0].State != "blocked" || doc.Targets[0].SharedPath != link ||
		doc.Targets[1].State != "outdated" {
		t.Errorf("exit %d, %s", r.code, r.stdout)
	}
	// One error; a test binary also hears that it runs from Go's build cache.
	if strings.Count(r.stderr, "charter: ")-strings.Count(r.stderr, "charter: warning: ") != 1 {
		t.Errorf("stderr %q", r.stderr)
	}
}

// Upgrading charter changes nothing in the block: a file written by one
// version is current for the next (issue 16 item 4).
func TestApplyCheckSurvivesUpgrade(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	env := coretest.New(t, coretest.Home(home)).Environ()
	for _, c := range []struct {
		version string
		args    []string
		code    int
	}{{"1.0.0", nil, 0}, {"2.0.0", []string{"--check"}, 0}} {
		var out, errb bytes.Buffer
		args := append([]string{"apply"}, c.args...)
		app := newApp(Build{Version: c.version}, strings.NewReader(""), &out, &errb, env, afero.NewOsFs(), args)
		if code := int(app.run(context.Background(), args)); code != c.code {
			t.Fatalf("charter %s %v: exit %d, want %d: %s%s", c.version, args, code, c.code, out.String(), errb.String())
		}
	}
}

// A test-only entry in the agent table is enough for the CLI: --agent
// accepts it, --help names it, and the JSON report lists it.
func TestApplyTableEntry(t *testing.T) {
	home := t.TempDir()
	environ := coretest.New(t, coretest.Home(home)).Environ()
	exec := func(args ...string) run {
		var out, errb bytes.Buffer
		app := newApp(Build{Version: "t"}, strings.NewReader(""), &out, &errb, environ, afero.NewOsFs(), args)
		app.Sys.AgentTable = append(agents.Default(), agents.Agent{Name: "zork", DefaultDir: ".zork", UserFile: "ZORK.md", Format: agents.FormatBlock})
		app.Interactive = func() bool { return false }
		return run{int(app.run(context.Background(), args)), out.String(), errb.String()}
	}
	r := exec("apply", "--agent", "zork", "--json")
	var doc struct {
		Agents  []string
		Targets []struct{ Agent, Path, State string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != 0 {
		t.Fatalf("exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if doc.Agents[len(doc.Agents)-1] != "zork" || len(doc.Targets) != 1 || doc.Targets[0].Path != filepath.Join(home, ".zork", "ZORK.md") || doc.Targets[0].State != "written" {
		t.Errorf("report %s", r.stdout)
	}
	if r := exec("agents"); !strings.Contains(r.stdout, "\nzork ") {
		t.Errorf("charter agents does not name zork:\n%s", r.stdout)
	}
}
