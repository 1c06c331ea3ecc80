//go:build unix

package mcpserver

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/gates"
)

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
			e.scopeGates(t, "  tests:\n    command: echo t\n  lint:\n    command: echo l\n")
			cs := connect(t, e.server(), c, proto)

			params := &mcp.CallToolParams{Name: "gates_run", Arguments: map[string]any{}}
			params.SetProgressToken("run-1")
			res, err := cs.CallTool(context.Background(), params)
			if err != nil {
				t.Fatal(err)
			}
			var rep gates.Report
			structured(t, res, &rep)
			if !rep.OK || len(rep.Gates) != 2 || rep.Gates[1].Name != "lint" {
				t.Errorf("report %+v", rep)
			}
			// Each gate that runs is two steps, its start and its end; each
			// notification moves forward.
			want := []string{"tests: running echo t", "tests: passed", "lint: running echo l", "lint: passed"}
			for i, msg := range want {
				p := <-got
				if p.ProgressToken != "run-1" || p.Message != msg || p.Progress != float64(i+1) || p.Total != 4 {
					t.Errorf("notification %d: %+v, want %q at %d of 4", i, p, msg, i+1)
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

// Cancelling gates_run (notifications/cancelled) stops the session's run:
// the gate's whole process group is killed before its command ends.
func TestGatesCancel(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no sleep command")
		}
		t.Skip("no sleep command")
	}
	for _, proto := range protocols {
		t.Run(protoName(proto), func(t *testing.T) {
			e := newEnv(t, "PATH="+os.Getenv("PATH")) // sleep runs with the System's environment
			dir := t.TempDir()
			pidPipe, finished := filepath.Join(dir, "pid"), filepath.Join(dir, "finished")
			if err := syscall.Mkfifo(pidPipe, 0o600); err != nil {
				t.Fatal(err)
			}
			e.scopeGates(t, "  tests:\n    command: echo $$ > "+pidPipe+"; sleep 60; echo > "+finished+"\n  lint:\n    required: false\n")
			cs := connect(t, e.server(), newClient(noRoots), proto)

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			called := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "gates_run", Arguments: map[string]any{}})
				called <- err
			}()
			out, err := os.ReadFile(pidPipe) // returns once the gate's shell runs
			if err != nil {
				t.Fatal(err)
			}
			pgid, err := strconv.Atoi(strings.TrimSpace(string(out)))
			if err != nil {
				t.Fatal(err)
			}
			if err := syscall.Kill(-pgid, 0); err != nil {
				t.Fatalf("the gate process is not running: %v", err)
			}
			cancel()
			if err := <-called; !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled call returned %v", err)
			}
			// The server side stops on its own time: wait (bounded by the
			// watchdog, which only a bug reaches) until the group is gone.
			wait := watched(t)
			tick := time.NewTicker(10 * time.Millisecond)
			defer tick.Stop()
			for syscall.Kill(-pgid, 0) == nil {
				select {
				case <-wait.Done():
					t.Fatalf("process group %d still runs after the cancellation", pgid)
				case <-tick.C:
				}
			}
			if _, err := os.Stat(finished); err == nil {
				t.Error("the gate ran to its end: the cancellation did not stop it")
			}
			// The session is still usable.
			if res := call(t, cs, "settings_get", KeyInput{Key: "rules.tier"}); res.IsError || !strings.Contains(coretest.ToolText(res), "balanced") {
				t.Errorf("after a cancelled run: %s", coretest.ToolText(res))
			}
		})
	}
}
