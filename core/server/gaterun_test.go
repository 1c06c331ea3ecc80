package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

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
	e := newEnv(t)
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
	e := newEnv(t)
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
