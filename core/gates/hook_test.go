package gates

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	iofs "io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/fsys"
)

func newState(t *testing.T) (*FileState, string) {
	t.Helper()
	m := coretest.New(t)
	state := filepath.Join(m.Dir, "state")
	return NewFileState(m.Sys, state), state
}

func stopJSON(session string, active bool) string {
	return fmt.Sprintf(`{"session_id":%q,"transcript_path":"/t.jsonl","cwd":"/work/p","permission_mode":"default",`+
		`"hook_event_name":"Stop","stop_hook_active":%v,"last_assistant_message":"Done.","unknown_field":{"x":1}}`, session, active)
}

var failingReport = Report{OK: false, Gates: []Result{
	{Name: Tests, Status: StatusFailed, ExitCode: new(int), Message: "exit code 1", Command: "go test ./...",
		OutputTail: []string{"--- FAIL: TestAdd (0.00s)", "    add_test.go:9: 1+1 = 3, want 2", "FAIL"}},
	{Name: Lint, Status: StatusPassed, ExitCode: new(int), OutputTail: []string{}},
}}

var passingReport = Report{OK: true, Gates: []Result{{Name: Tests, Status: StatusPassed, OutputTail: []string{}}}}

// hooker feeds stop events to HookMain with a report chosen per call.
type hooker struct {
	t      *testing.T
	state  StateStore
	opt    HookOptions
	report Report
	dirs   []string // the Dir each run got
}

func (h *hooker) stop(session string, active bool) HookResult {
	h.t.Helper()
	return HookMain(context.Background(), strings.NewReader(stopJSON(session, active)), h.state, func(in StopInput) (HookOptions, error) {
		if in.Cwd != "/work/p" || !in.StopHookActive == active || in.SessionID != session {
			h.t.Fatalf("input %+v", in)
		}
		opt := h.opt
		opt.Run = func(_ context.Context, cfg Config) Report {
			h.dirs = append(h.dirs, cfg.Dir)
			return h.report
		}
		return opt, nil
	})
}

func expect(t *testing.T, res HookResult, exit int, decision string) {
	t.Helper()
	if res.ExitCode != exit || res.Decision != decision {
		t.Fatalf("exit %d decision %s, want %d %s\nstdout %s\nstderr %s", res.ExitCode, res.Decision, exit, decision, res.Stdout, res.Stderr)
	}
	if res.Stdout != "" {
		var out map[string]any
		if err := json.Unmarshal([]byte(res.Stdout), &out); err != nil || len(out) != 1 || out["systemMessage"] == "" {
			t.Fatalf("stdout is not {\"systemMessage\": …}: %q", res.Stdout)
		}
	}
}

func readLog(t *testing.T, path string) []LogEntry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []LogEntry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e LogEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		out = append(out, e)
	}
	return out
}

func TestHookStopBlocksAtMostMaxBlocksInARow(t *testing.T) {
	fs, dir := newState(t)
	h := &hooker{t: t, state: fs, opt: HookOptions{OnFailure: OnFailureStop, MaxBlocks: 2}, report: failingReport}

	res := h.stop("s1", false)
	expect(t, res, 2, DecisionBlock)
	for _, want := range []string{
		"blocked 1 of at most 2", "tests failed: exit code 1", "  --- FAIL: TestAdd (0.00s)",
		"  FAIL\n", "Run it again (in /work/p): go test ./...", "`charter gate run` runs every gate",
	} {
		if !strings.Contains(res.Stderr, want) {
			t.Fatalf("stderr lacks %q:\n%s", want, res.Stderr)
		}
	}
	if strings.Contains(res.Stderr, "lint") || res.Stdout != "" {
		t.Fatalf("summary names a passing gate or prints stdout:\n%s%s", res.Stderr, res.Stdout)
	}
	expect(t, h.stop("s1", true), 2, DecisionBlock)
	res = h.stop("s1", true) // the bound: let it stop, tell the user
	expect(t, res, 0, DecisionAllow)
	if !strings.Contains(res.Stdout, "still fail after 2 blocks in a row: tests (exit code 1)") {
		t.Fatalf("stdout %s", res.Stdout)
	}
	expect(t, h.stop("s1", true), 0, DecisionAllow)

	// Another session has its own count.
	expect(t, h.stop("s2", true), 2, DecisionBlock)
	// The agent stopping on its own (not a continuation) starts a new run of blocks.
	expect(t, h.stop("s1", false), 2, DecisionBlock)
	// Passing gates reset the count.
	h.report = passingReport
	res = h.stop("s1", true)
	expect(t, res, 0, DecisionPass)
	if res.Stdout != "" || res.Stderr != "" {
		t.Fatalf("a pass prints %q %q", res.Stdout, res.Stderr)
	}
	h.report = failingReport
	expect(t, h.stop("s1", true), 2, DecisionBlock)

	for _, d := range h.dirs {
		if d != "/work/p" {
			t.Fatalf("gates ran in %q, not the input's cwd", d)
		}
	}
	log := readLog(t, filepath.Join(dir, "gates.log"))
	var got []string
	for _, e := range log {
		got = append(got, fmt.Sprintf("%s:%s:%d:%d", e.Session, e.Decision, e.Exit, e.Blocks))
	}
	want := "s1:block:2:1 s1:block:2:2 s1:allow:0:2 s1:allow:0:2 s2:block:2:1 s1:block:2:1 s1:pass:0:0 s1:block:2:1"
	if strings.Join(got, " ") != want {
		t.Fatalf("log\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	if e := log[0]; e.Cwd != "/work/p" || e.OnFailure != "stop" || len(e.Failing) != 1 || e.Failing[0] != Tests || e.Time.IsZero() {
		t.Fatalf("entry %+v", e)
	}
}

func TestHookWarn(t *testing.T) {
	fs, _ := newState(t)
	h := &hooker{t: t, state: fs, opt: HookOptions{OnFailure: OnFailureWarn, RunAll: "/bin/charter --config-root /r gate run"}, report: failingReport}
	for range 5 {
		res := h.stop("s", true)
		expect(t, res, 0, DecisionWarn)
		if !strings.Contains(res.Stdout, "quality gates fail: tests (exit code 1). Run `/bin/charter --config-root /r gate run`") || res.Stderr != "" {
			t.Fatalf("stdout %s stderr %s", res.Stdout, res.Stderr)
		}
	}
}

func TestHookAskOncePerSession(t *testing.T) {
	fs, _ := newState(t)
	h := &hooker{t: t, state: fs, opt: HookOptions{OnFailure: OnFailureAsk}, report: failingReport}
	res := h.stop("s", false)
	expect(t, res, 2, DecisionAsk)
	if !strings.Contains(res.Stderr, "stop here and ask the user how to proceed") || !strings.Contains(res.Stderr, "add_test.go:9") {
		t.Fatalf("stderr %s", res.Stderr)
	}
	expect(t, h.stop("s", true), 0, DecisionAllow)  // the agent asked and stops
	expect(t, h.stop("s", false), 0, DecisionAllow) // a later turn: once per session
	expect(t, h.stop("other", false), 2, DecisionAsk)
}

func TestHookMalformedInput(t *testing.T) {
	for name, tc := range map[string]struct{ in, want string }{
		"empty":        {"", "no Stop hook input on stdin"},
		"not json":     {"stop please", "is not the JSON object Claude Code sends"},
		"array":        {"[1]", "is not the JSON object"},
		"wrong type":   {`{"session_id":"s","cwd":"/p","stop_hook_active":"yes"}`, "is not the JSON object"},
		"two values":   {`{"session_id":"s","cwd":"/p"} {}`, "more than one JSON value"},
		"no session":   {`{"cwd":"/p"}`, "has no session_id"},
		"other event":  {`{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse"}`, "not PreToolUse: install it under hooks.Stop"},
		"load failure": {stopJSON("s", false), "malformed settings"},
	} {
		t.Run(name, func(t *testing.T) {
			fs, dir := newState(t)
			res := HookMain(context.Background(), strings.NewReader(tc.in), fs, func(StopInput) (HookOptions, error) {
				return HookOptions{}, errors.New("malformed settings")
			})
			expect(t, res, 1, DecisionError)
			if !strings.HasPrefix(res.Stderr, "charter: gate hook claude-stop: ") || !strings.Contains(res.Stderr, tc.want) {
				t.Fatalf("stderr %q", res.Stderr)
			}
			if log := readLog(t, filepath.Join(dir, "gates.log")); len(log) != 1 || log[0].Decision != DecisionError || !strings.Contains(log[0].Error, tc.want) {
				t.Fatalf("log %+v", log)
			}
		})
	}
}

func TestHookBadPolicy(t *testing.T) {
	fs, _ := newState(t)
	h := &hooker{t: t, state: fs, opt: HookOptions{OnFailure: "block"}, report: failingReport}
	res := h.stop("s", false)
	expect(t, res, 1, DecisionError)
	if !strings.Contains(res.Stderr, `gates.on_failure is "block": choose stop, warn or ask`) {
		t.Fatalf("stderr %q", res.Stderr)
	}
}

// brokenState cannot remember anything.
type brokenState struct{ load, save error }

func (b brokenState) Load(s string) (SessionState, error) { return SessionState{Session: s}, b.load }
func (b brokenState) Save(SessionState) error             { return b.save }
func (b brokenState) Append(LogEntry) error               { return errors.New("disk full") }

// Without a count the hook never blocks a continuation, so it cannot loop.
func TestHookWithoutStateNeverLoops(t *testing.T) {
	for name, st := range map[string]StateStore{
		"unreadable": brokenState{load: errors.New("unreadable")},
		"unwritable": brokenState{save: errors.New("read-only")},
		"none":       nil,
	} {
		t.Run(name, func(t *testing.T) {
			for _, policy := range []string{OnFailureStop, OnFailureAsk} {
				h := &hooker{t: t, state: st, opt: HookOptions{OnFailure: policy}, report: failingReport}
				first := h.stop("s", false)
				if first.ExitCode != 2 {
					t.Fatalf("%s: a fresh stop is not blocked: %+v", policy, first)
				}
				expect(t, h.stop("s", true), 0, DecisionAllow)
			}
		})
	}
}

func TestFileStateLogRotates(t *testing.T) {
	fs, dir := newState(t)
	log := filepath.Join(dir, "gates.log")
	if err := fs.Append(LogEntry{Decision: "first"}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte(strings.Repeat("x", MaxLogBytes-100) + "\n"))
	f.Close()
	if err := fs.Append(LogEntry{Decision: "last", Session: strings.Repeat("s", 200)}); err != nil {
		t.Fatal(err)
	}
	if e := readLog(t, log); len(e) != 1 || e[0].Decision != "last" {
		t.Fatalf("new log %+v", e)
	}
	old, err := os.ReadFile(log + ".1")
	if err != nil || !strings.HasPrefix(string(old), `{"time":`) || len(old) > MaxLogBytes {
		t.Fatalf("rotated log: %d bytes, %v", len(old), err)
	}
	if fi, _ := os.Stat(log); fi.Mode().Perm() != fsys.FileMode {
		t.Fatalf("log mode %v", fi.Mode())
	}
}

// The log is charter's own: an older log with a wider mode is 0600 after
// the next append, and so is the one a rotation keeps.
func TestFileStateLogMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes on Windows")
	}
	fs, dir := newState(t)
	log := filepath.Join(dir, "gates.log")
	if err := fs.Append(LogEntry{Decision: "first"}); err != nil {
		t.Fatal(err)
	}
	os.Chmod(log, 0o644)
	if err := fs.Append(LogEntry{Decision: "second"}); err != nil {
		t.Fatal(err)
	}
	mode := func(p string) iofs.FileMode {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	if m := mode(log); m != fsys.FileMode {
		t.Fatalf("log mode %v after an append", m)
	}
	os.Truncate(log, MaxLogBytes)
	os.Chmod(log, 0o644)
	if err := fs.Append(LogEntry{Decision: "rotated"}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{log, log + ".1"} {
		if m := mode(p); m != fsys.FileMode {
			t.Fatalf("%s mode %v after a rotation", p, m)
		}
	}
	if e := readLog(t, log); len(e) != 1 || e[0].Decision != "rotated" {
		t.Fatalf("new log %+v", e)
	}
}

func TestFileStateSessions(t *testing.T) {
	fs, dir := newState(t)
	if st, err := fs.Load("../../etc/passwd"); err != nil || st.Blocks != 0 {
		t.Fatalf("new session %+v %v", st, err)
	}
	if err := fs.Save(SessionState{Session: "../../etc/passwd", Blocks: 2, Asked: true}); err != nil {
		t.Fatal(err)
	}
	st, err := fs.Load("../../etc/passwd")
	if err != nil || st.Blocks != 2 || !st.Asked || st.Updated.IsZero() {
		t.Fatalf("loaded %+v %v", st, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "gates-sessions", "*.json"))
	if len(files) != 1 || strings.Contains(files[0], "passwd") {
		t.Fatalf("files %q", files)
	}
	// A corrupt file is reported, and the state starts over.
	os.WriteFile(files[0], []byte("{"), 0o600)
	if st, err := fs.Load("../../etc/passwd"); err == nil || st.Blocks != 0 {
		t.Fatalf("corrupt file: %+v %v", st, err)
	}
	// Old sessions are pruned when another is saved.
	old := time.Now().Add(-SessionTTL - time.Hour)
	os.Chtimes(files[0], old, old)
	if err := fs.Save(SessionState{Session: "new"}); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "gates-sessions", "*.json")); len(files) != 1 {
		t.Fatalf("after pruning %q", files)
	}
}

// The numbers agree: the entry's timeout gives every gate all of
// gates.timeout and the time to stop it; the hook's own deadline comes
// after that, and early enough to stop the gate it cuts and answer
// before Claude Code cancels the hook.
func TestHookTimeLimitsAgree(t *testing.T) {
	if HookTimeout(0) != 1920 || HookTimeout(DefaultTimeout) != 1920 || HookTimeout(20*time.Minute) != 3720 {
		t.Fatalf("HookTimeout: %d %d %d", HookTimeout(0), HookTimeout(DefaultTimeout), HookTimeout(20*time.Minute))
	}
	if need := time.Duration(len(Names()))*stopTime + hookReserve; hookMargin < need {
		t.Fatalf("hookMargin %s is less than %s", hookMargin, need)
	}
	prev := 0
	for _, gate := range []time.Duration{time.Millisecond, 1500 * time.Millisecond, 90 * time.Second, 10 * time.Minute,
		time.Hour, 24 * time.Hour, 8 * 24 * time.Hour, 9 * 24 * time.Hour, 1000 * time.Hour, math.MaxInt64} {
		secs := HookTimeout(gate)
		claude := time.Duration(secs) * time.Second
		budget := hookBudget(gate)
		if budget+stopTime+hookAnswer > claude {
			t.Errorf("gates.timeout %s: the hook's budget %s leaves no time to stop a gate and answer within %d s", gate, budget, secs)
		}
		if claude > maxHookLimit {
			t.Errorf("gates.timeout %s: %d s is beyond what a JavaScript timer holds", gate, secs)
		}
		if claude < maxHookLimit {
			if all := time.Duration(len(Names())) * (gate + stopTime); all > budget {
				t.Errorf("gates.timeout %s: the hook's budget %s cuts gates that keep to their limit (%s)", gate, budget, all)
			}
		}
		if secs < prev {
			t.Errorf("gates.timeout %s: %d s, less than for a shorter gates.timeout (%d s)", gate, secs, prev)
		}
		prev = secs
	}
}

// Without a Budget, the hook gives its gates hookBudget(Config.Timeout).
func TestHookRunsItsGatesUnderItsBudget(t *testing.T) {
	for _, gate := range []time.Duration{0, 90 * time.Second, time.Hour} {
		var left time.Duration
		opt := HookOptions{Config: Config{Timeout: gate}, Run: func(ctx context.Context, cfg Config) Report {
			dl, ok := ctx.Deadline()
			if !ok {
				t.Fatal("the gates run without a deadline")
			}
			left = time.Until(dl)
			return passingReport
		}}
		expect(t, Hook(context.Background(), StopInput{SessionID: "s", Cwd: t.TempDir()}, nil, opt), 0, DecisionPass)
		if want := hookBudget(gate); left > want || left < want-time.Minute {
			t.Errorf("gates.timeout %s: deadline in %s, want %s", gate, left, want)
		}
	}
}
