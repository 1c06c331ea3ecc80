package commands

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// A command that ignores its cancelled context is ended by force after
// the grace period, with a message; a second signal ends it at once.
func TestSuperviseEndsAStuckCommand(t *testing.T) {
	for _, second := range []bool{false, true} {
		sigs := make(chan os.Signal, 2)
		var stderr bytes.Buffer
		grace := time.Hour // the second signal must not wait for it
		if !second {
			grace = time.Millisecond
		}
		out := make(chan ExitCode, 1)
		go func() {
			out <- supervise(sigs, grace, &stderr, func() bool { return false }, func(context.Context) ExitCode {
				select {} // stuck for good
			})
		}()
		sigs <- syscall.SIGTERM
		if second {
			sigs <- syscall.SIGTERM
		}
		select {
		case code := <-out:
			if code != ExitRuntime {
				t.Fatalf("exit %d, want 1", code)
			}
		case <-time.After(time.Minute): // a watchdog, not a measure
			t.Fatal("a stuck command outlived SIGTERM")
		}
		want := "did not stop within 1ms: stopped by force"
		if second {
			want = "SIGTERM received again: stopped at once"
		}
		if !strings.Contains(stderr.String(), want) {
			t.Fatalf("stderr %q, want %q", stderr.String(), want)
		}
	}
}

// A command that stops when its context is cancelled keeps its own exit
// status; SIGINT held by a foreground program (the editor) is left to it.
func TestSuperviseCancelsAndHolds(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	held := true
	var cause error
	out := make(chan ExitCode, 1)
	started := make(chan struct{})
	go func() {
		out <- supervise(sigs, time.Hour, &bytes.Buffer{}, func() bool { return held }, func(ctx context.Context) ExitCode {
			close(started)
			<-ctx.Done()
			cause = context.Cause(ctx)
			return ExitCheckFailed
		})
	}()
	<-started
	sigs <- os.Interrupt // held: ignored
	sigs <- syscall.SIGTERM
	if code := <-out; code != ExitCheckFailed {
		t.Fatalf("exit %d", code)
	}
	if cause == nil || cause.Error() != "SIGTERM received" || !errors.Is(cause, cause) {
		t.Fatalf("cause %v", cause)
	}
}

// cmdStopProc sends a signal to the process whose pid is in a file and
// waits, with a generous watchdog, until it is gone:
// stopproc [-INT] PIDFILE. A process still there after the watchdog is
// killed and the script fails.
func cmdStopProc(ts *testscript.TestScript, neg bool, args []string) {
	sig := syscall.SIGTERM
	if len(args) == 2 && args[0] == "-INT" {
		sig, args = syscall.SIGINT, args[1:]
	}
	if neg || len(args) != 1 {
		ts.Fatalf("usage: stopproc [-INT] PIDFILE")
	}
	var pid int
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		data, err := os.ReadFile(ts.MkAbs(args[0]))
		if err == nil {
			if pid, err = strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 {
				break
			}
		}
		if time.Now().After(deadline) {
			ts.Fatalf("no pid in %s", args[0])
		}
	}
	p, err := os.FindProcess(pid)
	ts.Check(err)
	ts.Check(p.Signal(sig))
	for deadline := time.Now().Add(time.Minute); p.Signal(syscall.Signal(0)) == nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			p.Kill()
			ts.Fatalf("process %d still runs a minute after %s", pid, sig)
		}
	}
}
