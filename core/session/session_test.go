package session

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
)

// machine is a home, a repository in it and a system whose working
// directory is the repository; the policy path is pinned.
func machine(t *testing.T) (sys *core.System, home, repo string) {
	t.Helper()
	dir := t.TempDir()
	home, repo = filepath.Join(dir, "home"), filepath.Join(dir, "repo")
	for _, d := range []string{home, filepath.Join(repo, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	environ := []string{"HOME=" + home, "PATH=", "AGENTKIT_POLICY_FILE=" + filepath.Join(dir, "policy.yaml")}
	sys = core.NewSystem(afero.NewOsFs(), environ, time.Now, func() (string, error) { return repo, nil }, profile.Guard)
	return sys, home, repo
}

func set(t *testing.T, s *Session, layer, key, text string) *settings.Snapshot {
	t.Helper()
	v, err := settings.ParseText(key, text)
	if err != nil {
		t.Fatal(err)
	}
	tg, err := s.Target(layer)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := tg.Write(settings.Update{Set: map[string]any{key: v}})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// A write at a project layer without a project creates it at the
// repository root; the session works on that project from then on, and
// its gates run there.
func TestTargetCreatesTheProject(t *testing.T) {
	sys, _, repo := machine(t)
	s := New(sys, Options{})
	if p, err := s.Project(); p != nil || err != nil {
		t.Fatalf("a project before any file: %v %v", p, err)
	}
	if dir, _ := s.GateDir(); dir != repo {
		t.Errorf("gates run in %q, want the working directory %q", dir, repo)
	}
	set(t, s, settings.LayerProject, "rules.tier", "full")
	data, err := os.ReadFile(filepath.Join(repo, ".charter", "settings.yaml"))
	if err != nil || string(data) != "rules:\n  tier: full\n" {
		t.Fatalf("project file %q %v: a project file gets no schema comment", data, err)
	}
	p, err := s.Project()
	if err != nil || p == nil || p.Dir != repo {
		t.Fatalf("project after the write: %+v %v", p, err)
	}
	_, snap, err := s.Read()
	if err != nil || snap.Values["rules.tier"] != "full" {
		t.Errorf("the session does not read the project it created: %v %v", snap, err)
	}
	if dir, _ := s.GateDir(); dir != repo {
		t.Errorf("gates run in %q, want the project %q", dir, repo)
	}
}

// --no-project refuses a project write in words that name both flags.
func TestTargetNoProject(t *testing.T) {
	sys, _, _ := machine(t)
	_, err := New(sys, Options{NoProject: true}).Target(settings.LayerProjectLocal)
	if core.ErrorCode(err) != core.CodeUsage || !strings.Contains(err.Error(), "--local") || !strings.Contains(err.Error(), "--no-project") {
		t.Errorf("got %v", err)
	}
}

// A root a host chose is vetted by CheckRoot for every operation, but not
// for ResolvedScope, which doctor reports on itself.
func TestCheckRoot(t *testing.T) {
	sys, home, _ := machine(t)
	root := filepath.Join(home, "missing", "root")
	bad := errors.New("no parent")
	s := New(sys, Options{RootFlag: &root, CheckRoot: func(core.ConfigRoot) error { return bad }})
	if _, err := s.Store(); !errors.Is(err, bad) {
		t.Errorf("store: %v", err)
	}
	if sc, err := s.ResolvedScope(); err != nil || sc.Root.Path != root {
		t.Errorf("resolved scope %+v %v", sc, err)
	}
}

// A server reads its repository root's project layers before the first
// file exists, writes there, and runs gates there only once a file does.
// Its project is the one found at start: a later one is not looked for.
func TestServed(t *testing.T) {
	sys, _, repo := machine(t)
	sc, err := profile.ResolveScope(sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	sys.Getwd = func() (string, error) { return elsewhere, nil }
	s := New(sys, Options{Scope: &sc, Served: true, ProjectRoot: repo})
	st, err := s.Store()
	if err != nil || st.Project() == nil || st.Project().Dir != repo {
		t.Fatalf("store's project %+v %v", st, err)
	}
	if dir, _ := s.GateDir(); dir != elsewhere {
		t.Errorf("gates run in %q before the project has a file, want %q", dir, elsewhere)
	}
	set(t, s, settings.LayerProject, "rules.tier", "full")
	if dir, _ := s.GateDir(); dir != repo {
		t.Errorf("gates run in %q, want the project %q", dir, repo)
	}
	if p, _ := s.Project(); p != nil {
		t.Errorf("a served project that was not found at start: %+v", p)
	}
	if _, err := s.PlanAll(context.Background(), ApplyRequest{Project: true}); !errors.Is(err, ErrNoProject) {
		t.Errorf("apply --project without a served project: %v", err)
	}
}

// An MCP client's directory is where its project is found, and where its
// gates run without one.
func TestFrom(t *testing.T) {
	sys, _, repo := machine(t)
	sc, _ := profile.ResolveScope(sys, nil)
	set(t, New(sys, Options{}), settings.LayerProject, "rules.tier", "full")
	sub := filepath.Join(repo, "sub")
	os.MkdirAll(sub, 0o755)
	other := t.TempDir()
	for from, want := range map[string]string{sub: repo, other: other} {
		s := New(sys, Options{Scope: &sc, From: from})
		if dir, err := s.GateDir(); err != nil || dir != want {
			t.Errorf("from %s: gates run in %q %v, want %q", from, dir, err, want)
		}
	}
}

// The user-level plan reads no project value, whatever directory it runs
// in; the project's plan does.
func TestPlanApplyLevels(t *testing.T) {
	sys, home, _ := machine(t)
	os.MkdirAll(filepath.Join(home, ".claude"), 0o700)
	s := New(sys, Options{})
	set(t, s, settings.LayerProject, "worktrees.mode", "on")
	plan := func(s *Session, project bool) string {
		t.Helper()
		full, err := s.PlanAll(context.Background(), ApplyRequest{Agents: []string{"claude"}, Project: project})
		if err != nil || len(full.Targets) == 0 {
			t.Fatalf("plan %v %v", full, err)
		}
		return apply.Status(full.Targets)[0].Diff
	}
	user, project := plan(s, false), plan(s, true)
	if none := plan(New(sys, Options{NoProject: true}), false); user != none {
		t.Errorf("the user-level files read the project:\n%s\nwithout it:\n%s", user, none)
	}
	if strings.Contains(user, "Worktrees: **on**") || !strings.Contains(project, "Worktrees: **on**") {
		t.Errorf("user level:\n%s\nproject:\n%s", user, project)
	}
	// The personal project-local file and the scope never reach the
	// project's committed files.
	set(t, s, settings.LayerProjectLocal, "worktrees.mode", "off")
	set(t, s, settings.LayerScope, "memory.cadence", "never")
	if again := plan(s, true); again != project {
		t.Errorf("the project's plan read the personal or scope settings:\n%s\nbefore:\n%s", again, project)
	}
}
