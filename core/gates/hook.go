package gates

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// The hook follows Claude Code's hooks reference
// (https://code.claude.com/docs/en/hooks, sections "Hook input", "Exit code
// output", "Stop" and "JSON output"), read for this design:
//
//   - A command hook gets the event as JSON on stdin: the common fields
//     session_id, transcript_path, cwd, permission_mode, hook_event_name,
//     and for Stop also stop_hook_active ("true when Claude Code is already
//     continuing as a result of a stop hook") and last_assistant_message.
//   - Exit 0 is success; stdout may hold a JSON object whose common field
//     systemMessage is a warning shown to the user.
//   - Exit 2 is a blocking error: stdout is ignored and stderr is fed back
//     to Claude. For Stop it prevents Claude from stopping; Claude goes on
//     with stderr as the reason.
//   - Any other exit code is a non-blocking error: stderr is shown to the
//     user and the stop goes on. So charter's own failures exit 1, and a
//     broken hook never traps an agent.
//   - The hook must bound its own blocking (stop_hook_active is there for
//     that); recent Claude Code versions also cap consecutive Stop-hook
//     blocks themselves, but charter does not rely on it.
//   - A command hook's "timeout" is in seconds; without one it is 600 s
//     (60 s in older versions). A hook that outlives it is cancelled, a
//     non-blocking error: the agent stops with its gates unchecked. So
//     charter's entry carries HookTimeout, and the hook ends its gates
//     itself before that (see hookBudget).

// On-failure policies (the gates.on_failure setting).
const (
	OnFailureStop = "stop"
	OnFailureWarn = "warn"
	OnFailureAsk  = "ask"
)

// DefaultMaxBlocks is gates.max_blocks' default.
const DefaultMaxBlocks = 3

// Hook decisions, as gates.log records them.
const (
	DecisionPass  = "pass"  // every gate that ran passed: the agent may stop
	DecisionBlock = "block" // on_failure stop: exit 2, the agent goes on
	DecisionAsk   = "ask"   // on_failure ask: exit 2, the agent is told to ask the user
	DecisionWarn  = "warn"  // on_failure warn: exit 0, the user is told
	DecisionAllow = "allow" // gates fail but the bound is reached (or ask was used): exit 0, the user is told
	DecisionError = "error" // the hook itself failed: exit 1, never blocks
	DecisionSkip  = "skip"  // not a stop to gate (a subagent's, a pause): exit 0, no gate ran
)

// The Stop hook's time. Up to len(Names()) gates run one after another,
// each for at most gates.timeout plus stopTime, so charter's entry gives
// the hook len(Names()) × gates.timeout + hookMargin, and the hook stops
// its gates hookReserve before that limit, so that it still answers.
const (
	// stopTime bounds how long a gate goes on once its limit (or ctx) ends
	// it, as runCommand does it: SIGKILL a grace after SIGTERM, one more
	// grace for the rest of its group, reapWait, then the output drain
	// (twice the grace). 23 s.
	stopTime = 4*DefaultKillGrace + reapWait
	// hookAnswer is the hook's own time outside the gates: reading the
	// event and the settings before them, the state and the log after.
	hookAnswer = 15 * time.Second
	// hookReserve is what the hook keeps back from Claude Code's limit:
	// stopping the gate its own deadline cuts, then answering.
	hookReserve = stopTime + hookAnswer
	// hookMargin covers stopTime for each gate, plus hookReserve (107 s),
	// rounded up to whole minutes.
	hookMargin = 2 * time.Minute
	// maxHookLimit is the longest limit charter writes: Claude Code is a
	// JavaScript program, and a JavaScript timer holds at most 2^31−1 ms
	// (Node.js runs a longer one after 1 ms). About 24.8 days.
	maxHookLimit = (math.MaxInt32 / 1000) * time.Second
)

// hookLimit is the time Claude Code gives charter's Stop hook when the
// gates may each run for gateTimeout (0 = DefaultTimeout).
func hookLimit(gateTimeout time.Duration) time.Duration {
	if gateTimeout <= 0 {
		gateTimeout = DefaultTimeout
	}
	n := time.Duration(len(Names()))
	if gateTimeout > (maxHookLimit-hookMargin)/n {
		return maxHookLimit
	}
	return n*gateTimeout + hookMargin
}

// HookTimeout is the "timeout" of charter's Stop hook entry, in whole
// seconds: time for every gate to use all of gateTimeout (0 =
// DefaultTimeout), be stopped, and for the hook to answer. With the
// default 10m it is 1920 (32 minutes).
func HookTimeout(gateTimeout time.Duration) int {
	d := hookLimit(gateTimeout)
	secs := d / time.Second
	if d%time.Second != 0 {
		secs++
	}
	return int(secs)
}

// hookBudget is how long the hook lets its gates run in all before it
// ends them: hookReserve short of hookLimit, so that it answers before
// Claude Code cancels it. Gates that stay within gateTimeout always fit.
func hookBudget(gateTimeout time.Duration) time.Duration {
	return hookLimit(gateTimeout) - hookReserve
}

// HookOptions is what the hook needs once it knows the session's cwd.
type HookOptions struct {
	Config    Config // the gates of the project at the input's cwd; Dir "" = that cwd
	OnFailure string // stop, warn or ask; "" = stop
	MaxBlocks int    // blocks in a row per session; 0 = DefaultMaxBlocks
	// RunAll is the command that runs every gate, for the summary;
	// "" = "charter gate run".
	RunAll string
	// Budget bounds the gates' total time, so that the hook answers
	// before Claude Code cancels it; 0 = what the entry's HookTimeout
	// leaves for Config.Timeout. When it runs out, the running gate is
	// ended as if timed out and the rest are not run.
	Budget time.Duration
	Now    func() time.Time                     // nil = time.Now
	Run    func(context.Context, Config) Report // nil = Run with every gate
	// Cwd is the directory the hook runs in (the caller's system's), for
	// an event that names none: the agent starts its hooks in the
	// session's directory.
	Cwd string
	// Kind is whose hook this is: its messages and output protocol.
	Kind HookKind
}

// HookResult is what the hook command prints and how it exits.
type HookResult struct {
	ExitCode int
	Stdout   string // a JSON object, or ""
	Stderr   string
	Decision string
}

// HookMain is `charter gate hook claude-stop`: it reads the Stop event from
// stdin, asks load for the options of the project at the event's cwd, runs
// the gates and decides. Malformed input, or a load error, is exit 1 with
// the reason on stderr: a non-blocking error in Claude Code. Every decision
// is appended to state's log.
func HookMain(ctx context.Context, stdin io.Reader, state StateStore, load func(StopInput) (HookOptions, error)) HookResult {
	return RunHook(ctx, ClaudeStop, stdin, state, load)
}

// RunHook is HookMain for kind's agent (`charter gate hook <kind>`): the
// same decisions, answered in that agent's protocol. Exit 1 blocks neither
// agent.
func RunHook(ctx context.Context, kind HookKind, stdin io.Reader, state StateStore, load func(StopInput) (HookOptions, error)) HookResult {
	if state == nil {
		state = noState{}
	}
	in, err := ReadStopInput(stdin, kind)
	if err == nil {
		if why := in.notGated(); why != "" {
			// The block count is left as it is: this is not one of the
			// session's stops.
			state.Append(LogEntry{Time: time.Now().UTC(), Session: in.SessionID, Cwd: in.Cwd, StopHookActive: in.StopHookActive,
				Decision: DecisionSkip, Error: why})
			return HookResult{Decision: DecisionSkip}
		}
	}
	if err == nil {
		var opt HookOptions
		if opt, err = load(in); err == nil {
			if in.Cwd == "" {
				// The agent starts its hooks in the session's directory.
				in.Cwd = opt.Cwd
			}
			opt.Kind = kind
			return Hook(ctx, in, state, opt)
		}
	}
	res := HookResult{ExitCode: 1, Stderr: "charter: gate hook " + kind.String() + ": " + err.Error() + "\n", Decision: DecisionError}
	state.Append(LogEntry{Time: time.Now().UTC(), Session: in.SessionID, Cwd: in.Cwd, StopHookActive: in.StopHookActive,
		Decision: DecisionError, Exit: 1, Error: err.Error()})
	return res
}

// Hook decides one stop of one session (SPEC §10):
//
//   - gates pass (or none ran) → exit 0, silent; the block count resets;
//   - stop → exit 2 with a summary on stderr (which gate, its last lines,
//     the command to run again), at most MaxBlocks times in a row; then
//     exit 0 with a systemMessage saying that gates still fail;
//   - warn → exit 0 with {"systemMessage": …}: the user is told, the agent
//     is not held (a Stop hook cannot tell the agent anything without
//     blocking it);
//   - ask → exit 2 once per session with a reason that tells the agent to
//     stop and ask the user; later failing stops are exit 0 with a
//     systemMessage.
//
// The consecutive block count resets when the gates pass, when
// stop_hook_active is false (the agent stopped on its own, not as the
// continuation of a block) and in a new session. If the state cannot be
// read or saved, the hook falls back to stop_hook_active alone: it never
// blocks a continuation it cannot count. These exits are Claude Code's
// protocol; opt.Kind turns them into its agent's (see HookKind).
func Hook(ctx context.Context, in StopInput, state StateStore, opt HookOptions) HookResult {
	if state == nil {
		state = noState{}
	}
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	entry := LogEntry{Time: now().UTC(), Session: in.SessionID, Cwd: in.Cwd, StopHookActive: in.StopHookActive, OnFailure: opt.OnFailure}
	var problems []string
	finish := func(res HookResult) HookResult {
		res = opt.Kind.answer(res)
		entry.Decision, entry.Exit = res.Decision, res.ExitCode
		entry.Error = strings.Join(problems, "; ")
		if err := state.Append(entry); err != nil && res.ExitCode != 2 {
			// Exit 2's stderr goes to the agent; keep it about the gates.
			res.Stderr += "charter: " + err.Error() + "\n"
		}
		return res
	}

	policy := opt.OnFailure
	if policy == "" {
		policy = OnFailureStop
	}
	if policy != OnFailureStop && policy != OnFailureWarn && policy != OnFailureAsk {
		msg := fmt.Sprintf("gates.on_failure is %q: choose stop, warn or ask", opt.OnFailure)
		problems = append(problems, msg)
		return finish(HookResult{ExitCode: 1, Stderr: "charter: gate hook " + opt.Kind.String() + ": " + msg + "\n", Decision: DecisionError})
	}
	maxBlocks := opt.MaxBlocks
	if maxBlocks <= 0 {
		maxBlocks = DefaultMaxBlocks
	}

	cfg := opt.Config
	if cfg.Dir == "" {
		cfg.Dir = in.Cwd
	}
	run := opt.Run
	if run == nil {
		run = func(ctx context.Context, cfg Config) Report { return Run(ctx, cfg, nil, nil) }
	}
	budget := opt.Budget
	if budget <= 0 {
		budget = hookBudget(cfg.Timeout)
	}
	runCtx, cancel := context.WithTimeoutCause(ctx, budget,
		fmt.Errorf("the Stop hook's time for all gates (%s) ran out", budget))
	defer cancel()
	rep := run(runCtx, cfg)
	if ctx.Err() != nil {
		// A signal (the agent or the user ending charter) stopped the
		// gates: their failure is charter's, not the work's.
		msg := "interrupted: the gates were stopped before they finished, so the stop is not blocked"
		problems = append(problems, msg)
		return finish(HookResult{ExitCode: 1, Stderr: "charter: gate hook " + opt.Kind.String() + ": " + msg + "\n", Decision: DecisionError})
	}
	failing := rep.Failing()
	for _, g := range failing {
		entry.Failing = append(entry.Failing, g.Name)
	}
	runAll := opt.RunAll
	if runAll == "" {
		runAll = "charter gate run"
	}

	// The count is read, decided on and saved under the session's lock,
	// after the gates ran: concurrent stops of one session count one by one.
	var res HookResult
	decide := func() {
		st, err := state.Load(in.SessionID)
		remembers, loaded := err == nil, st
		if err != nil {
			problems = append(problems, err.Error())
		}
		if !in.StopHookActive {
			st.Blocks = 0
		}
		switch {
		case len(failing) == 0:
			st.Blocks = 0
			res = HookResult{Decision: DecisionPass}
		case policy == OnFailureWarn:
			st.Blocks = 0
			res = systemMessage(DecisionWarn, fmt.Sprintf("charter: quality gates fail: %s. Run `%s` to see why.", brief(failing), runAll))
		case policy == OnFailureAsk && (st.Asked || (!remembers && in.StopHookActive)):
			res = systemMessage(DecisionAllow, fmt.Sprintf("charter: quality gates still fail: %s (the agent was already told to ask you in this session). Run `%s` to see why.", brief(failing), runAll))
		case policy == OnFailureAsk:
			st.Asked = true
			st.Blocks++
			res = HookResult{ExitCode: 2, Decision: DecisionAsk, Stderr: askText(failing, cfg.Dir, runAll)}
		case st.Blocks >= maxBlocks || (!remembers && in.StopHookActive):
			res = systemMessage(DecisionAllow, fmt.Sprintf("charter: quality gates still fail after %d blocks in a row: %s. The agent was let stop; run `%s` to see why.", st.Blocks, brief(failing), runAll))
		default:
			st.Blocks++
			res = HookResult{ExitCode: 2, Decision: DecisionBlock, Stderr: stopText(failing, cfg.Dir, st.Blocks, maxBlocks, runAll)}
		}
		res = tellUntrusted(res, rep, &st, cfg.TrustCommand)
		entry.Blocks = st.Blocks
		if remembers && loaded.idle() && st.idle() {
			return // nothing to remember, before or after: no write, no fsync
		}
		if err := state.Save(st); err != nil {
			problems = append(problems, err.Error())
			if res.ExitCode == 2 && in.StopHookActive {
				// The count is lost: a second block in a row could repeat forever.
				res = systemMessage(DecisionAllow, fmt.Sprintf("charter: quality gates fail: %s, but the hook cannot keep its count (%v), so the agent was let stop. Run `%s` to see why.", brief(failing), err, runAll))
			}
		}
	}
	if l, ok := state.(sessionLocker); ok {
		ran := false
		err := l.LockSession(in.SessionID, func() error { ran = true; decide(); return nil })
		if !ran {
			// Without the lock the count cannot be trusted: decide as a
			// store that remembers nothing would.
			problems = append(problems, err.Error())
			state = noState{}
			decide()
		}
	} else {
		decide()
	}
	return finish(res)
}

// sessionLocker is a StateStore that can hold one session's state still
// while the hook reads, decides and saves it.
type sessionLocker interface {
	LockSession(session string, fn func() error) error
}

// noState is the store of a hook given none: it remembers nothing, so the
// hook falls back to stop_hook_active.
type noState struct{}

func (noState) Load(session string) (SessionState, error) {
	return SessionState{Session: session}, errors.New("no state store")
}
func (noState) Save(SessionState) error { return nil }
func (noState) Append(LogEntry) error   { return nil }
