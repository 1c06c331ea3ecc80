//go:build unix

package gates

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readPid reads a pid the gate's shell wrote.
func readPid(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func groupGone(t *testing.T, pgid int) {
	t.Helper()
	if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("process group %d still has processes (kill: %v)", pgid, err)
	}
}

// A gate that outlives its timeout is killed with its whole group, a child
// that ignores SIGTERM included.
func TestRunTimeoutKillsTheGroup(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{
		// The shell and its child both ignore SIGTERM; the child also holds the output pipe.
		Tests:     required(`trap '' TERM; echo $$ > pgid; sleep 1000 & echo started; wait; wait`),
		Lint:      required("echo next"),
		Dir:       dir,
		Timeout:   300 * time.Millisecond,
		KillGrace: 100 * time.Millisecond,
	}
	rep := Run(context.Background(), cfg, nil, nil)
	g := rep.Gates[0]
	if g.Status != StatusTimedOut || g.ExitCode != nil || rep.OK || rep.ExitCode() != ExitFailed {
		t.Fatalf("gate %+v", g)
	}
	if !strings.HasPrefix(g.Message, "timed out after 300ms; its process group was killed") || len(g.OutputTail) != 1 || g.OutputTail[0] != "started" {
		t.Fatalf("gate %q %q", g.Message, g.OutputTail)
	}
	groupGone(t, readPid(t, filepath.Join(dir, "pgid")))
	if rep.Gates[1].Status != StatusPassed {
		t.Fatalf("the next gate did not run: %+v", rep.Gates[1])
	}
}

// What a gate leaves running after it exits is ended, and does not hold
// the report back by keeping the output pipe open.
func TestRunEndsLeftovers(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Tests: required(`echo $$ > pgid; sleep 1000 & echo done`), Dir: dir, KillGrace: 100 * time.Millisecond}
	g := Run(context.Background(), cfg, nil, nil).Gates[0]
	if g.Status != StatusPassed || g.Message != "processes it left running were ended" {
		t.Fatalf("gate %+v", g)
	}
	groupGone(t, readPid(t, filepath.Join(dir, "pgid")))
}

// Each gate runs in a group of its own, not in charter's.
func TestRunOwnGroup(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Tests: required(`ps -o pgid= -p $$ > pgid; echo $$ > pid`), Dir: dir}
	if g := Run(context.Background(), cfg, nil, nil).Gates[0]; g.Status != StatusPassed {
		t.Fatalf("gate %+v", g)
	}
	pgid, pid := readPid(t, filepath.Join(dir, "pgid")), readPid(t, filepath.Join(dir, "pid"))
	if pgid != pid || pgid == syscall.Getpgrp() {
		t.Fatalf("gate ran in group %d (its pid %d, charter's group %d)", pgid, pid, syscall.Getpgrp())
	}
}

func TestHookRunsRealGates(t *testing.T) {
	fs, _ := newState(t)
	dir := t.TempDir()
	in := strings.NewReader(fmt.Sprintf(`{"session_id":"real","cwd":%q,"hook_event_name":"Stop","stop_hook_active":false}`, dir))
	res := HookMain(context.Background(), in, fs, func(in StopInput) (HookOptions, error) {
		return HookOptions{Config: Config{Tests: required("echo bad; exit 3")}}, nil
	})
	expect(t, res, 2, DecisionBlock)
	if !strings.Contains(res.Stderr, "tests failed: exit code 3\nLast lines of its output:\n  bad\nRun it again (in "+dir+"): echo bad; exit 3\n") {
		t.Fatalf("stderr:\n%s", res.Stderr)
	}
}

// A process that left the group (its own session) and keeps the output
// pipe open cannot hold the report back.
func TestRunDoesNotWaitForEscapedHolders(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	dir := t.TempDir()
	cfg := Config{
		Tests:     required(`setsid sh -c 'echo $$ > stray; exec sleep 1000' & while [ ! -s stray ]; do :; done; echo done`),
		Dir:       dir,
		KillGrace: 100 * time.Millisecond,
	}
	g := Run(context.Background(), cfg, nil, nil).Gates[0]
	stray := readPid(t, filepath.Join(dir, "stray"))
	syscall.Kill(stray, syscall.SIGKILL)
	if g.Status != StatusPassed || len(g.OutputTail) != 1 || g.OutputTail[0] != "done" {
		t.Fatalf("gate %+v", g)
	}
}

// The hook command survives the shell Claude Code runs it through.
func TestHookCommandQuoting(t *testing.T) {
	for _, tc := range []struct{ bin, root string }{
		{"/usr/local/bin/charter", ""},
		{"/Users/Jo Doe/bin/charter", "/srv/agent roots/it's $HOME"},
		{"/opt/c@1.2/charter", "/r"},
		{"C:/Program Files/charter/charter.exe", `C:\r`},
	} {
		cmd := HookCommand(tc.bin, tc.root)
		if !IsCharterHook(cmd) {
			t.Fatalf("%q is not recognised", cmd)
		}
		out, err := exec.Command("/bin/sh", "-c", "printf '%s\\n' "+strings.TrimSuffix(cmd, HookCommandSuffix)).Output()
		if err != nil {
			t.Fatal(err)
		}
		want := tc.bin + "\n"
		if tc.root != "" {
			want += "--config-root\n" + tc.root + "\n"
		}
		if string(out) != want {
			t.Fatalf("%s splits into %q", cmd, out)
		}
	}
	if got := HookCommand("C:/Users/jo/bin/charter.exe", "/r"); got != "C:/Users/jo/bin/charter.exe --config-root /r gate hook claude-stop" {
		t.Fatalf("plain paths are quoted: %s", got)
	}
}

// When the hook's budget runs out, the running gate is ended as timed out
// (so the stop is blocked, not let through unchecked) and the rest are not
// run; the messages say why.
func TestHookEndsItsGatesWhenItsBudgetRunsOut(t *testing.T) {
	dir := t.TempDir()
	opt := HookOptions{
		Config: Config{Tests: required("echo $$ > pgid; sleep 1000"), Lint: required("true"),
			Timeout: 20 * time.Second, KillGrace: 50 * time.Millisecond}, // the budget ends it first
		Budget: 300 * time.Millisecond,
	}
	var rep Report
	opt.Run = func(ctx context.Context, cfg Config) Report {
		rep = Run(ctx, cfg, nil, nil)
		return rep
	}
	res := Hook(context.Background(), StopInput{SessionID: "s", Cwd: dir}, nil, opt)
	expect(t, res, 2, DecisionBlock)
	const why = "the Stop hook's time for all gates (300ms) ran out"
	if !strings.Contains(res.Stderr, "tests timed out: "+why+"; its process group was killed") {
		t.Fatalf("stderr:\n%s", res.Stderr)
	}
	if len(rep.Gates) != 2 || rep.Gates[0].Status != StatusTimedOut || rep.Gates[1].Status != StatusSkipped || rep.Gates[1].Message != "not run: "+why {
		t.Fatalf("report %+v", rep)
	}
	groupGone(t, readPid(t, filepath.Join(dir, "pgid")))
}
