//go:build unix

package mcpserver

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/gates"
)

// stepRunner is a fake gate runner: it reports each of its gates as done.
func stepRunner(names ...string) GateRunner {
	return func(ctx context.Context, req GateRequest, progress Progress) (gates.Report, error) {
		rep := gates.Report{OK: true}
		for i, g := range names {
			progress(i, len(names), g+": running") // same count as the last: not a step forward
			code := 0
			rep.Gates = append(rep.Gates, gates.Result{Name: g, Status: "passed", ExitCode: &code, OutputTail: []string{}})
			progress(i+1, len(names), g+": passed")
		}
		return rep, nil
	}
}

func TestGatesProgress(t *testing.T) {
	for _, proto := range protocols {
		t.Run(protoName(proto), func(t *testing.T) {
			e := newEnv(t)
			got := make(chan *mcp.ProgressNotificationParams, 16)
			c := newClient(&mcp.ClientOptions{
				Capabilities: &mcp.ClientCapabilities{},
				ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
					got <- req.Params
				},
			})
			cs := connect(t, e.server(stepRunner("tests", "lint", "coverage")), c, proto)

			params := &mcp.CallToolParams{Name: "gates_run", Arguments: map[string]any{}}
			params.SetProgressToken("run-1")
			res, err := cs.CallTool(context.Background(), params)
			if err != nil {
				t.Fatal(err)
			}
			var rep gates.Report
			structured(t, res, &rep)
			if !rep.OK || len(rep.Gates) != 3 || rep.Gates[2].Name != "coverage" {
				t.Errorf("report %+v", rep)
			}
			// The first report (0 of 3) starts the run; each later one must
			// move forward, so the "running" reports at an unchanged count
			// are not sent.
			want := []string{"tests: running", "tests: passed", "lint: passed", "coverage: passed"}
			for i, msg := range want {
				p := <-got
				if p.ProgressToken != "run-1" || p.Message != msg || p.Progress != float64(i) || p.Total != 3 {
					t.Errorf("notification %d: %+v, want %q at %d of 3", i, p, msg, i)
				}
			}

			// Without a progress token, no notification is sent.
			structured(t, call(t, cs, "gates_run", nil), &rep)
			if err := cs.Ping(context.Background(), nil); err != nil { // one more round trip
				t.Fatal(err)
			}
			if len(got) != 0 {
				t.Errorf("%d progress notifications without a progress token", len(got))
			}
		})
	}
}

// sleepRunner starts `sleep 60` in its own process group, as a gate runner
// starts a gate's shell, and kills the group when ctx ends.
type sleepRunner struct {
	started chan int   // the group's id, once the process runs
	ended   chan error // ctx's error when the runner returned
}

func (r *sleepRunner) run(ctx context.Context, req GateRequest, progress Progress) (gates.Report, error) {
	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return gates.Report{}, err
	}
	progress(0, 1, "tests: running")
	r.started <- cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		r.ended <- ctx.Err()
		return gates.Report{}, err
	case <-ctx.Done():
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done // reaped: nothing of the group is left
		r.ended <- ctx.Err()
		return gates.Report{}, ctx.Err()
	}
}

func TestGatesCancel(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	for _, proto := range protocols {
		t.Run(protoName(proto), func(t *testing.T) {
			e := newEnv(t)
			r := &sleepRunner{started: make(chan int, 1), ended: make(chan error, 1)}
			cs := connect(t, e.server(r.run), newClient(noRoots), proto)

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			called := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "gates_run", Arguments: map[string]any{}})
				called <- err
			}()
			pgid := <-r.started
			if err := syscall.Kill(-pgid, 0); err != nil {
				t.Fatalf("the gate process is not running: %v", err)
			}
			cancel()
			if err := <-called; !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled call returned %v", err)
			}
			// The server cancelled the runner's context: the client's
			// cancellation reached it.
			if err := <-r.ended; !errors.Is(err, context.Canceled) {
				t.Errorf("runner context: %v, want canceled", err)
			}
			if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("process group %d still has processes after the cancellation (%v)", pgid, err)
			}
			// The session is still usable.
			if res := call(t, cs, "settings_get", KeyInput{Key: "rules.tier"}); res.IsError || !strings.Contains(coretest.ToolText(res), "balanced") {
				t.Errorf("after a cancelled run: %s", coretest.ToolText(res))
			}
		})
	}
}
