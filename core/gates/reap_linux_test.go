package gates

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A daemon a gate starts in a session of its own (setsid) leaves the
// gate's process group; it is ended with the gate all the same.
func TestRunEndsSetsidDaemons(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Tests: required(`setsid sleep 1000 > /dev/null 2>&1 & echo $! > daemon.pid; setsid sh -c 'sleep 1000 & echo $! > grandchild.pid; wait' > /dev/null 2>&1 & sleep 0.2; echo done`),
		Dir: dir, KillGrace: 100 * time.Millisecond}
	g := Run(context.Background(), cfg, nil, nil).Gates[0]
	if g.Status != StatusPassed || g.Message != "processes it left running were ended" {
		t.Fatalf("gate %+v", g)
	}
	for _, f := range []string{"daemon.pid", "grandchild.pid"} {
		pid := readPid(t, filepath.Join(dir, f))
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("%s %d outlived the gate (kill: %v)", f, pid, err)
		}
	}
}

// Only the gate's own descendants are ended: a child of charter's that
// does not descend from the gate is left alone.
func TestRunLeavesOtherChildren(t *testing.T) {
	other := exec.Command("sleep", "1000")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { other.Process.Kill(); other.Wait() }()
	g := Run(context.Background(), Config{Tests: required(`setsid sleep 1000 > /dev/null 2>&1 & true`), Dir: t.TempDir(), KillGrace: 100 * time.Millisecond}, nil, nil).Gates[0]
	if g.Status != StatusPassed {
		t.Fatalf("gate %+v", g)
	}
	if err := other.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("a child that is not the gate's was ended: %v", err)
	}
}
