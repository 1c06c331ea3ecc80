//go:build unix

package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/project"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/trust"
)

// gates_run runs nothing of an untrusted project (SPEC §13): the session
// marks the project's gate, and the run lists it without running it. Trusted, it runs; changed, it stops again. A trust file
// others may write, or a named pipe in its place, trusts nothing and
// blocks nothing.
func TestGatesRunUntrustedProject(t *testing.T) {
	e := newEnv(t, "PATH="+os.Getenv("PATH")) // touch runs with the System's environment
	proj := filepath.Join(t.TempDir(), "proj")
	marker := filepath.Join(t.TempDir(), "ran")
	settingsFile := filepath.Join(proj, ".charter", "settings.yaml")
	e.write(t, settingsFile, "gates:\n  tests:\n    command: touch "+marker+"\n  lint:\n    required: false\n")
	l := e.backend()
	run := func() gates.Report {
		t.Helper()
		rep, err := l.RunGates(context.Background(), proj, nil, func(int, int, string) {})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	ran := func() bool {
		_, err := os.Stat(marker)
		os.Remove(marker)
		return err == nil
	}

	if rep := run(); rep.OK || len(rep.Gates) != 1 || rep.Gates[0].Status != gates.StatusUntrusted || ran() {
		t.Fatalf("untrusted: %+v, ran %v", rep, ran())
	}
	p, err := project.At(e.sys, proj, core.SourceFlag)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := settings.Open(e.sys, e.scope, p, nil).Read()
	if err != nil {
		t.Fatal(err)
	}
	shown, err := gates.TrustOf(e.sys, snap)
	if err != nil || len(shown.Values) != 1 || shown.Values[0].Key != settings.KeyGatesTestsCommand || shown.Values[0].Layer != settings.LayerProject {
		t.Fatalf("%+v %v", shown, err)
	}
	if _, err := gates.TrustProject(e.sys, snap, shown.SHA256, nil, false); err != nil {
		t.Fatal(err)
	}
	if rep := run(); !rep.OK || !ran() {
		t.Fatalf("trusted: %+v", rep)
	}
	// A trust file someone else may write trusts nothing; the run goes on.
	tf, err := trust.Path(e.sys)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tf, 0o666); err != nil {
		t.Fatal(err)
	}
	if rep := run(); rep.OK || rep.Gates[0].Status != gates.StatusUntrusted || ran() {
		t.Fatalf("trust file mode 0666: %+v", rep)
	}
	if err := os.Chmod(tf, 0o600); err != nil {
		t.Fatal(err)
	}
	if rep := run(); !rep.OK || !ran() {
		t.Fatalf("trusted again: %+v", rep)
	}
	// A named pipe in its place trusts nothing either, and blocks nothing.
	if err := os.Remove(tf); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(tf, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan gates.Report, 1)
	go func() { // no t.Fatal off the test's goroutine: an error is a report that is not OK
		rep, _ := l.RunGates(context.Background(), proj, nil, func(int, int, string) {})
		done <- rep
	}()
	select {
	case rep := <-done:
		if rep.OK || len(rep.Gates) != 1 || rep.Gates[0].Status != gates.StatusUntrusted || ran() {
			t.Fatalf("trust file a named pipe: %+v", rep)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("gates_run blocked on a named pipe as the trust file")
	}
	os.Remove(tf)
	if _, err := gates.TrustProject(e.sys, snap, shown.SHA256, nil, false); err != nil {
		t.Fatal(err)
	}
	e.write(t, settingsFile, "gates:\n  tests:\n    command: touch "+marker+" && true\n  lint:\n    required: false\n")
	if rep := run(); rep.OK || rep.Gates[0].Status != gates.StatusUntrusted || ran() {
		t.Fatalf("changed: %+v", rep)
	}
}
