package server

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/dismiss"
)

// POST /api/v1/wizard/undismiss-recommendation undoes a dismissal, as
// `charter dismiss --undo` does: the same body, the same answer, and the
// detection shows the recommendation again at once.
func TestUndismiss(t *testing.T) {
	e := newEnv(t)
	r := e.start(t, 0)
	path := filepath.Join(e.home, ".agentkit", "charter", "dismissals.json")
	// Nothing dismissed, no file: nothing to undo, nothing written.
	rp := r.do("POST", "api/v1/wizard/undismiss-recommendation", `{"id":"agent-switch"}`)
	if rp.status != 200 || string(bytes.TrimSpace(rp.body)) != `{"ok":true,"dismissed":[]}` {
		t.Fatalf("undo of nothing: %d %s", rp.status, rp.body)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatalf("an undo of nothing wrote %s", path)
	}
	for body, code := range map[string]string{`{}`: "invalid_request", `{"id":"copilot"}`: "unknown_id", `{"id":"agent-switch"`: "invalid_json"} {
		if rp := r.do("POST", "api/v1/wizard/undismiss-recommendation", body); rp.errCode(t) != code {
			t.Errorf("%s: %d %s, want %s", body, rp.status, rp.body, code)
		}
	}
	if rp := r.do("GET", "api/v1/wizard/undismiss-recommendation", ""); rp.status != 405 {
		t.Errorf("GET: %d", rp.status)
	}

	r.do("POST", "api/v1/wizard/dismiss-recommendation", `{"id":"agent-switch"}`)
	if detected(t, r)["dismissed"] != true {
		t.Fatal("the dismissal does not show in the detection")
	}
	rp = r.do("POST", "api/v1/wizard/undismiss-recommendation", `{"id":"agent-switch","confirmSharedWrite":false}`)
	if rp.status != 200 || string(bytes.TrimSpace(rp.body)) != `{"ok":true,"dismissed":[]}` {
		t.Fatalf("undo: %d %s", rp.status, rp.body)
	}
	data, err := os.ReadFile(path)
	if err != nil || bytes.Contains(data, []byte("agent-switch")) {
		t.Errorf("dismissals.json after the undo: %s %v", data, err)
	}
	if ok, err := dismiss.Dismissed(e.sys, "agent-switch"); ok || err != nil {
		t.Errorf("still dismissed: %v %v", ok, err)
	}
	if detected(t, r)["dismissed"] != false {
		t.Error("the detection still says dismissed")
	}
}

// GET /api/v1/gates lists the required gates without a command, the tests
// gate with the command the project's go.mod suggests and the exact line
// that sets it; once set, it is no longer listed.
func TestGatesUnconfigured(t *testing.T) {
	e := newEnv(t)
	proj := filepath.Join(e.dir, "proj")
	coretest.WriteFile(t, filepath.Join(proj, "go.mod"), "module x\n")
	e.sys.Getwd = func() (string, error) { return proj, nil }
	r := e.start(t, 0)

	type doc struct {
		Unconfigured []struct {
			Gate, Key string
			Suggested *struct{ Command, From, Set string }
		}
	}
	get := func() doc {
		t.Helper()
		rp := r.do("GET", "api/v1/gates", "")
		var d doc
		if err := json.Unmarshal(rp.body, &d); err != nil || rp.status != 200 {
			t.Fatalf("%d %s", rp.status, rp.body)
		}
		return d
	}
	d := get()
	if len(d.Unconfigured) != 2 || d.Unconfigured[0].Gate != "tests" || d.Unconfigured[0].Key != "gates.tests.command" ||
		d.Unconfigured[1].Gate != "lint" || d.Unconfigured[1].Suggested != nil {
		t.Fatalf("%+v", d)
	}
	s := d.Unconfigured[0].Suggested
	if s == nil || s.Command != "go test ./..." || s.From != "go.mod" || s.Set != "charter settings set --project gates.tests.command 'go test ./...'" {
		t.Errorf("suggestion %+v", s)
	}
	setGates(t, e, map[string]any{"gates.tests.command": "go test ./...", "gates.lint.required": false})
	if d := get(); len(d.Unconfigured) != 0 {
		t.Errorf("configured gates listed: %+v", d)
	}
	if rp := r.do("POST", "api/v1/gates", "{}"); rp.status != 405 {
		t.Errorf("POST: %d", rp.status)
	}
}
