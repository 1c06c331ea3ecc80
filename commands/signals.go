package commands

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
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
	if readOnlyQuick(args) {
		// Nothing to stop cleanly: the default action (the process ends)
		// loses nothing, and start-up does not pay for the signal thread.
		return a.run(context.Background(), args)
	}
	sigs := make(chan os.Signal, 2)
	notify := func() { signal.Notify(sigs, os.Interrupt, syscall.SIGTERM) }
	defer signal.Stop(sigs)
	if replaysFirst(args) {
		// Installing the handlers costs a locked thread and two handoffs
		// with it (half a millisecond): a run the plan memo answers reads
		// only, so the default action loses nothing until it must plan.
		a.armSignals = sync.OnceFunc(notify)
	} else {
		notify()
	}
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

// replaysFirst reports whether args name `apply`, whose first step may
// be the plan memo's replay: it arms the signal handlers itself (App.armSignals)
// before it plans, and so before it writes anything.
func replaysFirst(args []string) bool {
	words, ok := leadingWords(args, 1)
	return ok && len(words) == 1 && words[0] == "apply"
}

// leadingWords is the first n words of args that are neither a flag nor a
// global flag's value; ok is false when "--" comes first.
func leadingWords(args []string, n int) (words []string, ok bool) {
	for i := 0; i < len(args) && len(words) < n; i++ {
		switch arg := args[i]; {
		case arg == "--":
			return nil, false
		case arg == "--config-root" || arg == "--project-dir":
			i++ // its value
		case strings.HasPrefix(arg, "-"):
		default:
			words = append(words, arg)
		}
	}
	return words, true
}

// readOnlyQuick reports whether args name a command that reads a few
// files, writes nothing and starts nothing: the version, help, completion
// and man page, `settings get|list|path`, `ping` (not --server), `agents`
// and `detect` (it reads the companion's files, it never runs it). A
// flag's value is never taken for the command.
func readOnlyQuick(args []string) bool {
	words, ok := leadingWords(args, 2)
	if !ok || slices.Contains(args, "--server") {
		return false
	}
	if len(words) == 0 {
		return versionOnly(args) || helpOnly(args)
	}
	switch words[0] {
	case "version", "help", "completion", "man", "__complete", "agents", "detect", "ping":
		return true
	case "settings":
		return len(words) == 2 && (words[1] == "get" || words[1] == "list" || words[1] == "path")
	}
	return false
}

// helpOnly reports whether args ask for charter's own help alone (bare
// charter included), as text or JSON.
func helpOnly(args []string) bool {
	for _, arg := range args {
		if arg != "-h" && arg != "--help" && arg != "--json" {
			return false
		}
	}
	return true
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
