package gates

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/settings"
	"github.com/shopspring/decimal"
	"github.com/spf13/afero"
)

// Gate names, in the order Run runs them.
const (
	Tests    = "tests"
	Lint     = "lint"
	Coverage = "coverage"
)

// Names lists every gate in run order.
func Names() []string { return []string{Tests, Lint, Coverage} }

// Statuses of a gate in a report.
const (
	StatusPassed   = "passed"
	StatusFailed   = "failed"
	StatusTimedOut = "timed_out"
	StatusSkipped  = "skipped"
	// StatusUntrusted: the gate's command (or report) comes from a project
	// the user has not trusted, so it was not run (SPEC §13).
	StatusUntrusted = "untrusted"
)

// DefaultTimeout is one gate's time limit when Config.Timeout is zero.
const DefaultTimeout = 10 * time.Minute

// DefaultKillGrace is how long a gate's processes get between SIGTERM and
// SIGKILL.
const DefaultKillGrace = 2 * time.Second

// reapWait bounds the wait, after SIGKILL, for a group's processes to be
// gone. Killed grandchildren are reaped by init, which some container inits
// do only every few seconds; a process still there after this is reported.
const reapWait = 15 * time.Second

// ExitFailed is the process exit code when a gate failed or timed out
// (SPEC §3: a check ran and found a problem).
const ExitFailed = 5

// commandKeys names the setting that holds each gate's command, and what
// the command does, for the hint a skipped gate gives: no example of one
// language's tool, which would be wrong for every other project.
var commandKeys = lazy.Value[map[string]struct{ key, example string }]{Make: func() map[string]struct{ key, example string } {
	return map[string]struct{ key, example string }{
		Tests:    {settings.KeyGatesTestsCommand, "<the command that runs the tests>"},
		Lint:     {settings.KeyGatesLintCommand, "<the command that runs the linter>"},
		Coverage: {settings.KeyGatesCoverageCommand, "<the command that writes a coverage report>"},
	}
}}

// reportKey is the setting that names the coverage report.
const reportKey = settings.KeyGatesCoverageReport

// Gate is one command gate.
type Gate struct {
	Command   string // run through the platform shell; "" = not configured
	Required  bool
	Untrusted bool // from an untrusted project: listed, never run
}

// CoverageGate runs Command, then reads Report (relative to Config.Dir) and
// compares its percentage with Min. It is required when Min > 0.
type CoverageGate struct {
	Command   string
	Report    string
	Min       decimal.Decimal
	Untrusted bool // the command or the report is an untrusted project's
}

// Config is what Run needs: the effective gates.* settings and where to run.
type Config struct {
	Tests, Lint Gate
	Coverage    CoverageGate
	Timeout     time.Duration // one gate's limit; 0 = DefaultTimeout
	Dir         string        // the project root, else the working directory; "" = this process's
	Env         []string      // the gates' environment (Load: the System's); nil = none
	Fs          afero.Fs      // reads the coverage report; nil = the OS
	KillGrace   time.Duration // SIGTERM → SIGKILL; 0 = DefaultKillGrace
	// TrustCommand is what an untrusted gate's message tells to run.
	TrustCommand string
	// Suggested is the test command the project's files suggest, for a
	// tests gate without one (DetectTests); nil when none does.
	Suggested *Suggestion
}

// untrusted reports whether a gate waits for the project's trust.
func (c Config) untrusted(name string) bool {
	switch name {
	case Tests:
		return c.Tests.Untrusted
	case Lint:
		return c.Lint.Untrusted
	case Coverage:
		return c.Coverage.Untrusted
	}
	return false
}

// spec returns a gate's command and whether it is required.
func (c Config) spec(name string) (command string, required bool) {
	switch name {
	case Tests:
		return c.Tests.Command, c.Tests.Required
	case Lint:
		return c.Lint.Command, c.Lint.Required
	case Coverage:
		return c.Coverage.Command, c.Coverage.Min.IsPositive()
	}
	return "", false
}

// Required lists the required gates in run order.
func (c Config) Required() []string {
	var out []string
	for _, n := range Names() {
		if _, req := c.spec(n); req {
			out = append(out, n)
		}
	}
	return out
}

// Result is one gate in a report (SPEC §10).
type Result struct {
	Name       string          `json:"name"`
	Status     string          `json:"status"`
	ExitCode   *int            `json:"exitCode"`  // null when the command did not exit by itself
	ElapsedMs  int64           `json:"elapsedMs"` // 0 for a skipped gate
	OutputTail []string        `json:"outputTail"`
	Coverage   *CoverageResult `json:"coverage"`
	Message    string          `json:"message"`
	Command    string          `json:"-"` // what ran, for summaries
}

// CoverageResult is the coverage gate's measure. Percent is shown at
// DisplayScale decimals (or min's), truncated; pass or fail was decided on
// the exact value.
type CoverageResult struct {
	Percent decimal.Decimal
	Min     decimal.Decimal
}

// MarshalJSON writes both as JSON numbers from their canonical text
// (SPEC §8: 12.50 → 12.5).
func (c CoverageResult) MarshalJSON() ([]byte, error) {
	return []byte(`{"percent":` + c.Percent.String() + `,"min":` + c.Min.String() + `}`), nil
}

// Report is the outcome of Run: `charter gate run --json` and
// POST /api/v1/gates/run print it as is.
type Report struct {
	OK    bool     `json:"ok"`
	Gates []Result `json:"gates"`
}

// ExitCode is 0 when every gate that ran passed (skipped ones do not
// count) and none waits for trust, else ExitFailed.
func (r Report) ExitCode() int {
	if r.OK {
		return 0
	}
	return ExitFailed
}

// Failing returns the gates that failed or timed out.
func (r Report) Failing() []Result {
	var out []Result
	for _, g := range r.Gates {
		if g.Status == StatusFailed || g.Status == StatusTimedOut {
			out = append(out, g)
		}
	}
	return out
}

// JSON returns the report as one JSON document.
func (r Report) JSON() []byte {
	b, _ := json.Marshal(r) // every field marshals
	return b
}

// Kinds of progress events.
const (
	EventStart  = "start"  // a gate's command is about to start
	EventOutput = "output" // one line of its output
	EventDone   = "done"   // a gate is finished (also for a skipped one)
)

// Event is what Run tells progress as it goes. Calls never overlap and come
// in order: start, output lines, done, for each gate.
type Event struct {
	Kind    string
	Gate    string
	Command string  // start
	Line    string  // output
	Result  *Result // done
}

// Run runs the required gates among names (nil: all) in the order tests,
// lint, coverage, and reports each. A gate that is not required is not run
// and not listed; a required gate without a command is listed as skipped,
// with a message that says how to configure it. progress may be nil.
//
// Each command runs through the platform shell (`sh -c`, `cmd /C` on
// Windows) in cfg.Dir, in its own process group, with its standard output
// and error captured together (the last TailLines lines are kept) and stdin
// empty. When it outlives cfg.Timeout, or ctx is cancelled, the whole
// group gets SIGTERM, then SIGKILL after the grace period; processes a gate
// leaves behind after it exits are ended the same way. When ctx is
// cancelled, the gates not yet run are listed as skipped. A ctx that ends
// at its deadline (the Stop hook's budget) makes the running gate
// timed_out, and ctx's cause says why in the messages.
func Run(ctx context.Context, cfg Config, names []string, progress func(Event)) Report {
	if progress == nil {
		progress = func(Event) {}
	}
	rep := Report{OK: true, Gates: []Result{}}
	for _, name := range Names() {
		command, required := cfg.spec(name)
		if !required || (names != nil && !slices.Contains(names, name)) {
			continue
		}
		var res Result
		switch {
		case ctx.Err() != nil:
			res = Result{Name: name, Status: StatusSkipped, OutputTail: []string{}, Command: command,
				Message: "not run: " + cancelReason(ctx)}
		case cfg.untrusted(name):
			res = untrustedResult(cfg, name, command)
		case strings.TrimSpace(command) == "":
			res = cfg.skipped(name)
		default:
			progress(Event{Kind: EventStart, Gate: name, Command: command})
			res = runCommand(ctx, cfg, name, command, func(line string) {
				progress(Event{Kind: EventOutput, Gate: name, Line: line})
			})
			if name == Coverage && res.Status == StatusPassed {
				t0 := time.Now()
				measure(cfg, &res)
				res.ElapsedMs += time.Since(t0).Milliseconds()
			}
		}
		if res.Status == StatusFailed || res.Status == StatusTimedOut || res.Status == StatusUntrusted {
			rep.OK = false
		}
		rep.Gates = append(rep.Gates, res)
		progress(Event{Kind: EventDone, Gate: name, Result: &rep.Gates[len(rep.Gates)-1]})
	}
	return rep
}

// runCommand runs one gate's command and reports how it ended.
func runCommand(ctx context.Context, cfg Config, name, command string, onLine func(string)) Result {
	// A real child's duration needs the real monotonic clock, not an
	// injected one.
	start := time.Now()
	res := Result{Name: name, Command: command, OutputTail: []string{}}
	finish := func(status, msg string) Result {
		res.Status, res.Message = status, msg
		res.ElapsedMs = time.Since(start).Milliseconds()
		return res
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	grace := cfg.KillGrace
	if grace <= 0 {
		grace = DefaultKillGrace
	}

	// One pipe for stdout and stderr, handed to the child as a file: no
	// copying goroutine inside os/exec waits on it, so a grandchild that
	// keeps it open cannot hold Wait.
	r, w, err := os.Pipe()
	if err != nil {
		return finish(StatusFailed, fmt.Sprintf("start %s: %v", name, err))
	}
	cmd := shellCommand(command, cfg.Env)
	// Never this process's own environment: the System's, as Load gave.
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = cfg.Dir, append([]string{}, cfg.Env...), w, w
	mark, endReap := gateReaper() // reap_linux.go: what leaves the group is ended too
	defer endReap()
	if mark != "" {
		cmd.Env = append(slices.Clip(cmd.Env), mark)
	}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return finish(StatusFailed, fmt.Sprintf("start %s: %v", name, unwrapPath(err)))
	}
	w.Close()
	g := newGroup(cmd.Process)

	out := &tail{onLine: onLine}
	read := make(chan struct{})
	go func() {
		io.Copy(out, r) // ends at EOF, or at the read deadline drain sets
		close(read)
	}()
	// Wait runs here rather than in a goroutine: on a busy machine every
	// hand-off between goroutines costs a scheduling delay. The time limit
	// and ctx stop the command from timers instead.
	stop := newStopper(g, grace)
	limit := time.AfterFunc(timeout, func() { stop.trigger("timeout") })
	unhook := context.AfterFunc(ctx, func() { stop.trigger("cancelled") })
	waitErr := cmd.Wait()
	limit.Stop()
	unhook()
	stopped := stop.finish() // why charter ended the command, if it did
	var leftover bool
	if stopped != "" {
		// The leader is gone; what is left of its group (a child that
		// ignores SIGTERM) gets one more grace period.
		if !waitGone(g, grace) {
			g.kill()
		}
	} else {
		leftover = sweep(g, grace)
	}
	if endEscaped(mark) {
		leftover = true
	}
	gone := waitGone(g, reapWait)
	drain(r, read, out, grace)
	res.OutputTail = out.Lines()

	var notes []string
	if leftover {
		notes = append(notes, "processes it left running were ended")
	}
	if !gone {
		notes = append(notes, fmt.Sprintf("processes of its group %d were still there %s after SIGKILL", g.id(), reapWait))
	}
	note := strings.Join(notes, "; ")
	switch stopped {
	case "timeout":
		return finish(StatusTimedOut, join(fmt.Sprintf("timed out after %s; its process group was killed", timeout), note))
	case "cancelled":
		status := StatusFailed
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			status = StatusTimedOut
		}
		return finish(status, join(cancelReason(ctx)+"; its process group was killed", note))
	}
	code, sig := exitStatus(cmd.ProcessState)
	res.ExitCode = &code
	switch {
	case sig != "":
		return finish(StatusFailed, join(fmt.Sprintf("killed by signal %s", sig), note))
	case code != 0:
		return finish(StatusFailed, join(fmt.Sprintf("exit code %d", code), note))
	case waitErr != nil:
		return finish(StatusFailed, join(waitErr.Error(), note))
	}
	return finish(StatusPassed, note)
}

// cancelReason says why ctx ended: at its deadline, its cause (the Stop
// hook's budget says which); else "cancelled", whatever the cause (Ctrl-C).
func cancelReason(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return context.Cause(ctx).Error()
	}
	return "cancelled"
}

func join(a, b string) string {
	if b == "" {
		return a
	}
	return a + "; " + b
}
