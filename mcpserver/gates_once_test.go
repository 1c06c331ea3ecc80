package mcpserver

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/gates"
)

// An empty gate name is an unknown gate, as `charter gate run --gate ”`
// says, never "every gate"; nothing runs.
func TestGatesRunRefusesAnEmptyName(t *testing.T) {
	e := newEnv(t)
	ran := false
	cs := connect(t, e.server(func(context.Context, GateRequest, Progress) (gates.Report, error) {
		ran = true
		return gates.Report{OK: true, Gates: []gates.Result{}}, nil
	}), newClient(noRoots), "")
	for _, names := range [][]string{{""}, {"tests", ""}, {"nope"}} {
		body := toolErr(t, call(t, cs, "gates_run", GatesInput{Gates: names}))
		want := `unknown gate "` + map[bool]string{true: "nope", false: ""}[names[0] == "nope"] + `": choose among tests, lint, coverage`
		if body["code"] != core.CodeInvalidValue || body["message"] != want {
			t.Errorf("gates %q: %v, want %s", names, body, want)
		}
	}
	if ran {
		t.Fatal("a refused gates_run ran gates")
	}
}

// Concurrent gates_run calls run the gates once at a time: the others are
// refused with gate_running, as the HTTP API answers 409.
func TestGatesRunOneAtATime(t *testing.T) {
	e := newEnv(t)
	release := make(chan struct{})
	started := make(chan struct{}, 3)
	var running atomic.Int32
	cs := connect(t, e.server(func(context.Context, GateRequest, Progress) (gates.Report, error) {
		running.Add(1)
		started <- struct{}{}
		<-release
		return gates.Report{OK: true, Gates: []gates.Result{}}, nil
	}), newClient(noRoots), "")
	first := make(chan bool, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "gates_run", Arguments: map[string]any{}})
		first <- err == nil && !res.IsError
	}()
	<-started
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
	close(release)
	if !<-first {
		t.Fatal("the first run failed")
	}
	if n := running.Load(); n != 1 {
		t.Fatalf("%d runs at once, want 1", n)
	}
	// Once it is done, the next run goes.
	if res := call(t, cs, "gates_run", nil); res.IsError {
		t.Fatalf("after the run: %s", coretest.ToolText(res))
	}
}
