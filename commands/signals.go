package commands

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// StopGrace is how long a command has to end by itself after SIGINT or
// SIGTERM (it sees its context cancelled: a gate is stopped, an editor is
// sent SIGTERM, temporary files are removed). A command still running
// after it is ended by force, with a message on stderr and exit status 1;
// a second signal ends it at once. It is longer than what a clean stop
// takes at most: the server's drain (5 s) and then a gate's SIGKILL (2 s).
const StopGrace = 10 * time.Second

// Run is the whole of cmd/charter's main: Main for this process, with
// SIGINT and SIGTERM handled as StopGrace says.
func Run(build Build) int {
	a := newApp(build, os.Stdin, os.Stdout, os.Stderr, os.Environ(), afero.NewOsFs(), os.Args[1:])
	return int(a.runSignalled(os.Args[1:]))
}

// runSignalled runs args with this process's SIGINT and SIGTERM turned
// into a cancelled context.
func (a *App) runSignalled(args []string) ExitCode {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	return supervise(sigs, StopGrace, a.Stderr, a.heldInterrupt, func(ctx context.Context) ExitCode { return a.run(ctx, args) })
}

// supervise runs run, cancelling its context at the first signal from
// sigs and returning ExitRuntime when run has not returned grace later or
// at a second signal. held reports whether SIGINT belongs to a program in
// the foreground (an editor): then SIGINT is left to it, as git does.
func supervise(sigs <-chan os.Signal, grace time.Duration, stderr io.Writer, held func() bool, run func(context.Context) ExitCode) ExitCode {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	done := make(chan ExitCode, 1)
	go func() { done <- run(ctx) }()
	var (
		force <-chan time.Time
		first os.Signal
	)
	for {
		select {
		case code := <-done:
			return code
		case s := <-sigs:
			if s == os.Interrupt && held() {
				continue
			}
			if first != nil {
				fmt.Fprintf(stderr, "charter: %s received again: stopped at once\n", signalName(s))
				return ExitRuntime
			}
			first = s
			cancel(fmt.Errorf("%s received", signalName(s)))
			force = time.After(grace)
		case <-force:
			fmt.Fprintf(stderr, "charter: %s received, and the command did not stop within %s: stopped by force\n", signalName(first), grace)
			return ExitRuntime
		}
	}
}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// holdInterrupt leaves SIGINT to a program charter runs in the foreground
// of a terminal (the editor), which gets Ctrl-C too and handles it itself,
// until the returned release is called. SIGTERM still stops charter.
func (a *App) holdInterrupt() (release func()) {
	if !a.Interactive() {
		return func() {}
	}
	a.interruptHolds.Add(1)
	return func() { a.interruptHolds.Add(-1) }
}

func (a *App) heldInterrupt() bool { return a.interruptHolds.Load() > 0 }
