//go:build unix

package gates

import (
	"context"
	"errors"
	"os"
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
