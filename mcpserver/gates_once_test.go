//go:build unix

package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
)

// An empty gate name is an unknown gate, as `charter gate run --gate ”`
// says, never "every gate"; nothing runs.
func TestGatesRunRefusesAnEmptyName(t *testing.T) {
	e := newEnv(t)
	ran := filepath.Join(t.TempDir(), "ran")
	e.scopeGates(t, "  tests:\n    command: echo > "+ran+"\n")
	cs := connect(t, e.server(), newClient(noRoots), "")
	for _, names := range [][]string{{""}, {"tests", ""}, {"nope"}} {
		body := toolErr(t, call(t, cs, "gates_run", GatesInput{Gates: names}))
		want := `unknown gate "` + map[bool]string{true: "nope", false: ""}[names[0] == "nope"] + `": choose among tests, lint, coverage`
		if body["code"] != core.CodeInvalidValue || body["message"] != want {
			t.Errorf("gates %q: %v, want %s", names, body, want)
		}
	}
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("a refused gates_run ran gates")
	}
}

// Concurrent gates_run calls run the gates once at a time: the others are
// refused with gate_running, as the HTTP API answers 409. The gate says it
// started through one pipe and waits for the test on another.
func TestGatesRunOneAtATime(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	started, release := filepath.Join(dir, "started"), filepath.Join(dir, "release")
	for _, p := range []string{started, release} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	e.scopeGates(t, "  tests:\n    command: echo go > "+started+"; read x < "+release+"\n  lint:\n    required: false\n")
	cs := connect(t, e.server(), newClient(noRoots), "")
	first := make(chan bool, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "gates_run", Arguments: map[string]any{}})
		first <- err == nil && !res.IsError
	}()
	if _, err := os.ReadFile(started); err != nil { // returns once the gate runs
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "gates_run", Arguments: map[string]any{}})
			if err != nil {
				t.Error(err)
				return
			}
			if !res.IsError {
				t.Error("a second concurrent gates_run ran")
				return
			}
			if body := toolErr(t, res); body["code"] != core.CodeGateRunning {
				t.Errorf("second run: %v, want gate_running", body)
			}
		})
	}
	wg.Wait()
	if err := os.WriteFile(release, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if !<-first {
		t.Fatal("the first run failed")
	}
	// Once it is done, the next run goes (a gate that does not wait).
	e.scopeGates(t, "  tests:\n    command: \"true\"\n  lint:\n    required: false\n")
	if res := call(t, cs, "gates_run", nil); res.IsError {
		t.Fatalf("after the run: %s", coretest.ToolText(res))
	}
}
