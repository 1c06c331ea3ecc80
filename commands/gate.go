package commands

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/session"
)

// GateCmd groups the quality gate commands (SPEC §10).
type GateCmd struct {
	Run  GateRunCmd  `cmd:"" help:"Run the required quality gates (tests, lint, coverage) in the project root; exit 5 when one fails."`
	Hook GateHookCmd `cmd:"" help:"The hooks agents run; apply installs them."`
}

// GateHookCmd groups the agents' hooks.
type GateHookCmd struct {
	ClaudeStop GateClaudeStopCmd `cmd:"" name:"claude-stop" help:"Claude Code's Stop hook: reads the event on stdin and blocks the stop (exit 2) while a required gate fails."`
	CodexStop  GateCodexStopCmd  `cmd:"" name:"codex-stop" help:"Codex's Stop hook: reads the event on stdin and blocks the stop (a JSON decision on stdout) while a required gate fails."`
	// Not a gate: it only records, and the hooks apply installs live here.
	ClaudeLoaded GateClaudeLoadedCmd `cmd:"" name:"claude-loaded" help:"Claude Code's InstructionsLoaded hook: records which of charter's projected files the session loaded; always exits 0."`
}

// GateRunCmd runs the gates.
type GateRunCmd struct {
	Gate    *string `name:"gate" placeholder:"tests,lint,coverage" help:"Run only these gates (default: every required gate)." complete:"gate"`
	Verbose bool    `name:"verbose" help:"Stream each gate's output as it runs (with --json: on stderr)."`
}

func (c *GateRunCmd) Run(ctx context.Context, a *App) error {
	var names []string
	if c.Gate != nil {
		// Given, even empty: an empty name is an unknown gate, never all
		// (the session checks them, as for the HTTP API and MCP).
		names = strings.Split(*c.Gate, ",")
	}
	var out io.Writer = io.Discard
	if !a.JSON {
		out = a.Stdout
	}
	// A status line redrawn in place needs a terminal that understands
	// the escape that clears a line: a dumb one gets the plain lines.
	p := newGateProgress(out, a.Stderr, a.terminal(a.Stderr) && a.Sys.Getenv("TERM") != "dumb")
	defer p.close()
	if c.Verbose {
		p.stream = a.Stdout
		if a.JSON {
			p.stream = a.Stderr
		}
	}
	run, err := a.session().RunGates(ctx, session.GateRequest{Gates: names, Events: p.event, Started: func(required int) {
		if required == 0 && !a.JSON {
			fmt.Fprintln(a.Stderr, "charter: note: no gate is required (gates.tests.required, gates.lint.required and gates.coverage.min are off)")
		}
	}})
	if err != nil {
		return err
	}
	p.close()
	if a.JSON {
		if err := a.writeJSON(run.Report); err != nil {
			return err
		}
	}
	if err := run.Verdict(ctx); err != nil {
		return reported(err)
	}
	return nil
}

// gateProgress shows a run as it goes: one line per finished gate on out,
// and on a terminal a status line on stderr (the gate running, its elapsed
// time) redrawn until the gate is done.
type gateProgress struct {
	out, status io.Writer
	live        bool
	// stream gets each output line as the gate writes it (--verbose).
	stream io.Writer

	mu      sync.Mutex
	running string
	started time.Time
	stop    chan struct{}
	done    chan struct{}
}

func newGateProgress(out, status io.Writer, live bool) *gateProgress {
	p := &gateProgress{out: out, status: status, live: live}
	if live {
		p.stop, p.done = make(chan struct{}), make(chan struct{})
		go p.redraw()
	}
	return p
}

func (p *gateProgress) redraw() {
	defer close(p.done)
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.draw()
			p.mu.Unlock()
		}
	}
}

// draw writes the status line over the previous one; p.mu is held.
func (p *gateProgress) draw() {
	if p.running != "" {
		fmt.Fprintf(p.status, "\r\x1b[K%s running… %s", p.running, time.Since(p.started).Truncate(100*time.Millisecond))
	}
}

func (p *gateProgress) event(e gates.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e.Kind {
	case gates.EventStart:
		p.running, p.started = e.Gate, time.Now()
		if p.live {
			p.draw() // at once: a gate may be done before the first tick
		} else if p.out != io.Discard {
			fmt.Fprintf(p.out, "%-8s  running   %s\n", e.Gate, inert.Line(e.Command))
		}
	case gates.EventOutput:
		if p.stream != nil {
			if p.live {
				fmt.Fprint(p.status, "\r\x1b[K") // the line goes where the status was
			}
			// The gate's own output: its tabs stay, its escapes do not run.
			fmt.Fprintf(p.stream, "%-8s  | %s\n", e.Gate, inert.Body(e.Line))
			if p.live {
				p.draw()
			}
		}
	case gates.EventDone:
		if p.live && p.running != "" {
			fmt.Fprint(p.status, "\r\x1b[K")
		}
		p.running = ""
		printGate(p.out, *e.Result, p.stream == nil)
	}
}

// close stops the status line; a second call does nothing.
func (p *gateProgress) close() {
	if p.live && p.stop != nil {
		close(p.stop)
		<-p.done
		p.stop = nil
	}
}

// printGate is one gate's outcome for people: status and time, then why,
// and a failing gate's last lines.
func printGate(w io.Writer, g gates.Result, tail bool) {
	if w == io.Discard {
		return
	}
	status := strings.ReplaceAll(g.Status, "_", " ")
	if g.Status == gates.StatusSkipped || g.Status == gates.StatusUntrusted {
		fmt.Fprintf(w, "%-8s  %s\n", g.Name, status)
	} else {
		fmt.Fprintf(w, "%-8s  %-9s %s\n", g.Name, status, (time.Duration(g.ElapsedMs) * time.Millisecond).String())
	}
	if g.Message != "" {
		fmt.Fprintf(w, "          %s\n", inert.Line(g.Message))
	}
	if tail && (g.Status == gates.StatusFailed || g.Status == gates.StatusTimedOut) {
		for _, l := range g.OutputTail {
			fmt.Fprintf(w, "          | %s\n", inert.Body(l))
		}
	}
}

// GateClaudeStopCmd is Claude Code's Stop hook.
type GateClaudeStopCmd struct{}

func (c *GateClaudeStopCmd) Run(ctx context.Context, a *App) error {
	return runStopHook(ctx, a, gates.ClaudeStop)
}

// runStopHook answers one Stop event of kind's agent.
func runStopHook(ctx context.Context, a *App, kind gates.HookKind) error {
	agent := "claude"
	if kind == gates.CodexStop {
		agent = "codex"
	}
	a.serving(agent) // the hook's own agent chooses the profile
	res, err := a.session().StopHook(ctx, kind, a.Stdin)
	if err != nil {
		return err // exit 1: never blocks the agent
	}
	io.WriteString(a.Stdout, res.Stdout) // JSON for the agent: exact
	io.WriteString(a.Stderr, inert.Body(res.Stderr))
	if res.ExitCode != 0 {
		return exitQuietly(ExitCode(res.ExitCode))
	}
	return nil
}
