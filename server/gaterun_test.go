package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/project"
	"github.com/agentkit/charter/core/settings"
)

type gateDoc struct {
	OK    bool `json:"ok"`
	Gates []struct {
		Name, Status string
		ExitCode     *int
		OutputTail   []string
	} `json:"gates"`
}

func setGates(t *testing.T, e *env, set map[string]any) {
	t.Helper()
	if _, err := settings.New(e.sys, e.scope).Write(settings.Update{Set: set}); err != nil {
		t.Fatal(err)
	}
}

// POST /api/v1/gates/run runs the gates in the served directory and
// answers with the document of `charter gate run --json`.
func TestGatesRun(t *testing.T) {
	e := newEnv(t, gatePath())
	proj := filepath.Join(e.dir, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	e.sys.Getwd = func() (string, error) { return proj, nil }
	setGates(t, e, map[string]any{"gates.tests.command": "echo here: $(pwd); exit 3", "gates.lint.required": false})
	r := e.start(t, 0)

	rp := r.do("POST", "api/v1/gates/run", "")
	var doc gateDoc
	if err := json.Unmarshal(rp.body, &doc); err != nil || rp.status != 200 {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	if doc.OK || len(doc.Gates) != 1 || doc.Gates[0].Status != "failed" || *doc.Gates[0].ExitCode != 3 ||
		doc.Gates[0].OutputTail[0] != "here: "+proj {
		t.Errorf("%s", rp.body)
	}

	setGates(t, e, map[string]any{"gates.tests.command": "true", "gates.lint.required": true})
	rp = r.do("POST", "api/v1/gates/run", `{"gates":["tests"]}`)
	if err := json.Unmarshal(rp.body, &doc); err != nil || !doc.OK || len(doc.Gates) != 1 || doc.Gates[0].Status != "passed" {
		t.Errorf("%d %s", rp.status, rp.body)
	}
	for body, code := range map[string]string{`{"gates":["nope"]}`: "invalid_value", `{"gates":`: "invalid_json", `{"x":1}`: "invalid_request"} {
		if rp := r.do("POST", "api/v1/gates/run", body); rp.errCode(t) != code {
			t.Errorf("%s: %d %s, want %s", body, rp.status, rp.body, code)
		}
	}
	if rp := r.do("GET", "api/v1/gates/run", ""); rp.status != 405 {
		t.Errorf("GET: %d", rp.status)
	}
}

// A second run while one is under way is 409 gate_running; the first one
// is not disturbed.
func TestGatesRunOneAtATime(t *testing.T) {
	e := newEnv(t, gatePath())
	proj := t.TempDir()
	e.sys.Getwd = func() (string, error) { return proj, nil }
	// The gate says it started, then waits until the test lets it go.
	setGates(t, e, map[string]any{"gates.tests.command": "touch started; while [ ! -f go ]; do sleep 0.02; done", "gates.lint.required": false})
	r := e.start(t, 0)

	first := make(chan reply, 1)
	go func() { first <- r.do("POST", "api/v1/gates/run", "") }()
	for {
		if _, err := os.Stat(filepath.Join(proj, "started")); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	rp := r.do("POST", "api/v1/gates/run", "")
	if rp.status != 409 || rp.errCode(t) != "gate_running" {
		t.Errorf("second run: %d %s", rp.status, rp.body)
	}
	if err := os.WriteFile(filepath.Join(proj, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rp = <-first
	var doc gateDoc
	if err := json.Unmarshal(rp.body, &doc); err != nil || !doc.OK {
		t.Errorf("first run: %d %s", rp.status, rp.body)
	}
	// Free again.
	if rp := r.do("POST", "api/v1/gates/run", `{"gates":["lint"]}`); rp.status != 200 {
		t.Errorf("after: %d %s", rp.status, rp.body)
	}
}

// runDoc posts a gate run and decodes the answer.
func runDoc(t *testing.T, r *running) gateDoc {
	t.Helper()
	rp := r.do("POST", "api/v1/gates/run", "")
	var doc gateDoc
	if err := json.Unmarshal(rp.body, &doc); err != nil || rp.status != 200 {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	return doc
}

func readOut(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatalf("the gate did not run in %s: %v", dir, err)
	}
	return strings.TrimSpace(string(data))
}

// The gates come from every layer the server serves: a command set only in
// the project's file runs, in the project's root, even when the server's
// working directory lies elsewhere.
func TestGatesRunProjectLayer(t *testing.T) {
	e := newEnv(t, gatePath())
	proj := filepath.Join(e.dir, "proj")
	coretest.WriteFile(t, filepath.Join(proj, ".charter", "settings.yaml"),
		"gates.tests.command: pwd > out; exit 7\ngates.lint.required: false\n")
	elsewhere := t.TempDir()
	e.sys.Getwd = func() (string, error) { return elsewhere, nil }
	r, _ := e.startProject(t, proj)

	// Untrusted, the project's command does not run (SPEC §13).
	doc := runDoc(t, r)
	if doc.OK || len(doc.Gates) != 1 || doc.Gates[0].Status != "untrusted" {
		t.Fatalf("untrusted: %+v", doc)
	}
	if _, err := os.Stat(filepath.Join(proj, "out")); err == nil {
		t.Fatal("an untrusted project's command ran")
	}
	trustProject(t, e, proj)
	doc = runDoc(t, r)
	if doc.OK || len(doc.Gates) != 1 || doc.Gates[0].Status != "failed" || doc.Gates[0].ExitCode == nil || *doc.Gates[0].ExitCode != 7 {
		t.Fatalf("%+v", doc)
	}
	if got := readOut(t, proj); got != proj {
		t.Errorf("ran in %s, want %s", got, proj)
	}
}

// A server with no project found at start serves the repository root the
// hub may create the first project file in: once that file exists, its
// gates run there. Before that, and with --no-project, they run in the
// working directory, never in a project found again from it.
func TestGatesRunServedProjectRoot(t *testing.T) {
	e := newEnv(t, gatePath())
	repo := filepath.Join(e.dir, "repo")
	sub := filepath.Join(repo, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	e.sys.Getwd = func() (string, error) { return sub, nil }
	setGates(t, e, map[string]any{"gates.tests.command": "pwd > out", "gates.lint.required": false})
	s, err := Open(Config{Sys: e.sys, Scope: e.scope, ProjectRoot: repo, Version: "1.2.3-test"})
	if err != nil {
		t.Fatal(err)
	}
	r := serve(t, s)
	if doc := runDoc(t, r); !doc.OK {
		t.Fatalf("%+v", doc)
	}
	if got := readOut(t, sub); got != sub {
		t.Errorf("without a project file: ran in %s, want %s", got, sub)
	}

	coretest.WriteFile(t, filepath.Join(repo, ".charter", "settings.yaml"), "gates.tests.command: pwd > out; exit 7\n")
	trustProject(t, e, repo)
	if doc := runDoc(t, r); doc.OK || doc.Gates[0].Status != "failed" || *doc.Gates[0].ExitCode != 7 {
		t.Fatalf("with a project file: %+v", doc)
	}
	if got := readOut(t, repo); got != repo {
		t.Errorf("with a project file: ran in %s, want %s", got, repo)
	}
	r.stop()

	// --no-project: the project file under the working directory is not
	// the server's, neither for the settings nor for the directory.
	if err := os.Remove(filepath.Join(sub, "out")); err != nil {
		t.Fatal(err)
	}
	r = e.start(t, 0)
	if doc := runDoc(t, r); !doc.OK {
		t.Fatalf("--no-project: %+v", doc)
	}
	if got := readOut(t, sub); got != sub {
		t.Errorf("--no-project: ran in %s, want %s", got, sub)
	}
}

// The policy applies to a run: a lock on gates.tests.required makes the
// tests gate run although the scope turned it off.
func TestGatesRunPolicy(t *testing.T) {
	e := newEnv(t, "AGENTKIT_POLICY_FILE=$HOME/policy.yaml")
	proj := t.TempDir()
	e.sys.Getwd = func() (string, error) { return proj, nil }
	setGates(t, e, map[string]any{"gates.tests.command": "exit 4", "gates.tests.required": false, "gates.lint.required": false})
	r := e.start(t, 0)
	if doc := runDoc(t, r); !doc.OK || len(doc.Gates) != 0 {
		t.Fatalf("without a policy: %+v", doc)
	}
	coretest.WriteFile(t, filepath.Join(e.home, "policy.yaml"), "lock:\n  gates.tests.required: true\n")
	doc := runDoc(t, r)
	if doc.OK || len(doc.Gates) != 1 || doc.Gates[0].Status != "failed" || *doc.Gates[0].ExitCode != 4 {
		t.Errorf("with the policy: %+v", doc)
	}
	// A malformed policy fails the run, as it fails every command.
	coretest.WriteFile(t, filepath.Join(e.home, "policy.yaml"), "lokc:\n  gates.tests.required: true\n")
	if rp := r.do("POST", "api/v1/gates/run", ""); rp.errCode(t) != "malformed_policy" {
		t.Errorf("with a malformed policy: %d %s", rp.status, rp.body)
	}
}

// trustProject trusts the project at dir as the hub's button will: the
// values TrustOf shows, then TrustProject with their hash.
func trustProject(t *testing.T, e *env, dir string) {
	t.Helper()
	p, err := project.At(e.sys, dir, core.SourceFlag)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := settings.Open(e.sys, e.scope, p, nil).Read()
	if err != nil {
		t.Fatal(err)
	}
	shown, err := gates.TrustOf(e.sys, snap)
	if err != nil || shown.State != gates.TrustUntrusted || len(shown.Values) == 0 {
		t.Fatalf("%+v %v", shown, err)
	}
	if _, err := gates.TrustProject(e.sys, snap, shown.SHA256, nil, false); err != nil {
		t.Fatal(err)
	}
}

// The hub's trust refuses a hash that is not the current values': the
// user trusts only what was shown. A changed command stops running.
func TestGatesRunTrustChanged(t *testing.T) {
	e := newEnv(t, gatePath())
	proj := filepath.Join(e.dir, "proj")
	marker := filepath.Join(e.dir, "ran")
	coretest.WriteFile(t, filepath.Join(proj, ".charter", "settings.yaml"),
		"gates.tests.command: touch "+marker+"\ngates.lint.required: false\n")
	r, _ := e.startProject(t, proj)
	trustProject(t, e, proj)
	if doc := runDoc(t, r); !doc.OK {
		t.Fatalf("trusted: %+v", doc)
	}
	if err := os.Remove(marker); err != nil {
		t.Fatalf("the trusted command did not run: %v", err)
	}

	p, _ := project.At(e.sys, proj, core.SourceFlag)
	snap, _ := settings.Open(e.sys, e.scope, p, nil).Read()
	shown, _ := gates.TrustOf(e.sys, snap)
	coretest.WriteFile(t, filepath.Join(proj, ".charter", "settings.yaml"),
		"gates.tests.command: touch "+marker+"; echo changed\ngates.lint.required: false\n")
	if doc := runDoc(t, r); doc.OK || doc.Gates[0].Status != "untrusted" {
		t.Fatalf("changed: %+v", doc)
	}
	snap2, _ := settings.Open(e.sys, e.scope, p, nil).Read()
	if _, err := gates.TrustProject(e.sys, snap2, shown.SHA256, nil, false); errcode.Of(err) != core.CodeUntrusted {
		t.Errorf("trusting the old hash: %v, want code untrusted", err)
	}
	if doc := runDoc(t, r); doc.OK {
		t.Fatalf("after a refused trust: %+v", doc)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the changed command ran")
	}
}

// gatePath is the test's PATH for the System: a gate runs with the
// System's environment alone, and its commands (touch, sleep) are found
// on this one.
func gatePath() string { return "PATH=" + os.Getenv("PATH") }
