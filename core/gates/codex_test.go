package gates

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// codexStop is a Stop event as Codex sends it: Claude's fields, turn_id
// and model, and nulls where Codex has no transcript or message.
func codexStop(session string, active bool) string {
	b, _ := json.Marshal(map[string]any{
		"session_id": session, "turn_id": "7", "transcript_path": nil, "cwd": "/work/p",
		"hook_event_name": "Stop", "model": "gpt-5-codex", "permission_mode": "default",
		"stop_hook_active": active, "last_assistant_message": nil,
	})
	return string(b)
}

// runKind feeds one stop event to kind's hook with a fixed report.
func runKind(t *testing.T, kind HookKind, state StateStore, opt HookOptions, report Report, session string, active bool) HookResult {
	t.Helper()
	in := stopJSON(session, active)
	if kind == CodexStop {
		in = codexStop(session, active)
	}
	return RunHook(context.Background(), kind, strings.NewReader(in), state, func(in StopInput) (HookOptions, error) {
		if in.Cwd != "/work/p" || in.SessionID != session || in.StopHookActive != active {
			t.Fatalf("input %+v", in)
		}
		opt.Run = func(context.Context, Config) Report { return report }
		return opt, nil
	})
}

// checkCodexOutput holds stdout to codex-rs/hooks/schema/generated/
// stop.command.output.schema.json: an object with no other keys than the
// schema's, decision only "block", and a block has a non-blank reason.
// Exit 0 with no output is valid too.
func checkCodexOutput(t *testing.T, res HookResult) {
	t.Helper()
	if res.ExitCode != 0 && res.ExitCode != 1 {
		t.Fatalf("exit %d: Codex blocks on a JSON decision, not on an exit code", res.ExitCode)
	}
	if strings.TrimSpace(res.Stdout) == "" {
		return
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Stdout), &out); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, res.Stdout)
	}
	allowed := map[string]bool{"continue": true, "decision": true, "reason": true, "stopReason": true, "suppressOutput": true, "systemMessage": true}
	for k := range out {
		if !allowed[k] {
			t.Fatalf("stdout has %q, which Codex's Stop output schema does not allow: %s", k, res.Stdout)
		}
	}
	if d, ok := out["decision"]; ok {
		reason, _ := out["reason"].(string)
		if d != "block" || strings.TrimSpace(reason) == "" {
			t.Fatalf("a decision must be block with a non-blank reason: %s", res.Stdout)
		}
	}
}

// The Codex hook decides exactly as the Claude one, run for run, and
// answers in Codex's protocol: a block is exit 0 with the decision and
// Claude's stderr as the reason; everything else is the same.
func TestCodexHookAnswersClaudesDecisions(t *testing.T) {
	claudeState, _ := newState(t)
	codexState, dir := newState(t)
	steps := []struct {
		policy  string
		report  Report
		session string
		active  bool
		want    string
	}{
		{OnFailureStop, failingReport, "s1", false, DecisionBlock},
		{OnFailureStop, failingReport, "s1", true, DecisionBlock},
		{OnFailureStop, failingReport, "s1", true, DecisionAllow}, // the bound
		{OnFailureStop, failingReport, "s2", true, DecisionBlock},
		{OnFailureStop, failingReport, "s1", false, DecisionBlock}, // stopped on its own: a new run
		{OnFailureStop, passingReport, "s1", true, DecisionPass},
		{OnFailureAsk, failingReport, "s3", false, DecisionAsk},
		{OnFailureAsk, failingReport, "s3", true, DecisionAllow},
		{OnFailureWarn, failingReport, "s4", true, DecisionWarn},
		{"block", failingReport, "s5", false, DecisionError},
	}
	for i, st := range steps {
		opt := HookOptions{OnFailure: st.policy, MaxBlocks: 2}
		claude := runKind(t, ClaudeStop, claudeState, opt, st.report, st.session, st.active)
		codex := runKind(t, CodexStop, codexState, opt, st.report, st.session, st.active)
		if claude.Decision != st.want || codex.Decision != st.want {
			t.Fatalf("step %d: decisions %s (claude) %s (codex), want %s", i, claude.Decision, codex.Decision, st.want)
		}
		checkCodexOutput(t, codex)
		if claude.ExitCode != 2 {
			want := claude
			want.Stderr = strings.ReplaceAll(want.Stderr, "claude-stop", "codex-stop")
			if codex != want {
				t.Fatalf("step %d: codex %+v, claude %+v", i, codex, claude)
			}
			continue
		}
		var out struct{ Decision, Reason string }
		if err := json.Unmarshal([]byte(codex.Stdout), &out); err != nil || codex.ExitCode != 0 || codex.Stderr != "" ||
			out.Decision != "block" || out.Reason != strings.TrimRight(claude.Stderr, "\n") || !strings.HasSuffix(codex.Stdout, "}\n") {
			t.Fatalf("step %d: codex block %+v (%v), claude %+v", i, codex, err, claude)
		}
	}

	// The log records the exit the hook used: 0 for Codex's blocks.
	var got []string
	for _, e := range readLog(t, filepath.Join(dir, "gates.log")) {
		got = append(got, fmt.Sprintf("%s:%d", e.Decision, e.Exit))
	}
	want := "block:0 block:0 allow:0 block:0 block:0 pass:0 ask:0 allow:0 warn:0 error:1"
	if strings.Join(got, " ") != want {
		t.Fatalf("log %s, want %s", strings.Join(got, " "), want)
	}
}

// A reason keeps its text as is: quotes, backslashes, <, > and & are
// JSON-escaped only as JSON needs.
func TestCodexBlockReasonEscaping(t *testing.T) {
	rep := Report{Gates: []Result{{Name: Tests, Status: StatusFailed, Message: "exit code 1", Command: `go test "./..." && echo <ok>`,
		OutputTail: []string{`C:\src\cart_test.go:9: got "a" & <b>`}}}}
	res := runKind(t, CodexStop, nil, HookOptions{}, rep, "s", false)
	checkCodexOutput(t, res)
	if !strings.Contains(res.Stdout, `C:\\src\\cart_test.go:9: got \"a\" & <b>`) || strings.Contains(res.Stdout, `\u003c`) {
		t.Fatalf("stdout %s", res.Stdout)
	}
}

func TestCodexHookErrors(t *testing.T) {
	for name, tc := range map[string]struct{ in, want string }{
		"empty":        {"", "no Stop hook input on stdin: this command is run by Codex as a Stop hook"},
		"not json":     {"stop please", "is not the JSON object Codex sends"},
		"load failure": {codexStop("s", false), "malformed settings"},
	} {
		t.Run(name, func(t *testing.T) {
			fs, dir := newState(t)
			res := RunHook(context.Background(), CodexStop, strings.NewReader(tc.in), fs, func(StopInput) (HookOptions, error) {
				return HookOptions{}, errors.New("malformed settings")
			})
			checkCodexOutput(t, res)
			if res.ExitCode != 1 || res.Stdout != "" || !strings.HasPrefix(res.Stderr, "charter: gate hook codex-stop: ") || !strings.Contains(res.Stderr, tc.want) {
				t.Fatalf("%+v", res)
			}
			if log := readLog(t, filepath.Join(dir, "gates.log")); len(log) != 1 || log[0].Decision != DecisionError || log[0].Exit != 1 {
				t.Fatalf("log %+v", log)
			}
		})
	}
}

func TestHookKinds(t *testing.T) {
	for _, tc := range []struct {
		kind                 HookKind
		name, agent, command string
	}{
		{ClaudeStop, "claude-stop", "claude", "/usr/local/bin/charter --config-root '/srv/my root' gate hook claude-stop"},
		{CodexStop, "codex-stop", "codex", "/usr/local/bin/charter --config-root '/srv/my root' gate hook codex-stop"},
	} {
		if tc.kind.String() != tc.name || tc.kind.Agent() != tc.agent || tc.kind.Command("/usr/local/bin/charter", "/srv/my root") != tc.command {
			t.Errorf("%d: %s %s %s", tc.kind, tc.kind, tc.kind.Agent(), tc.kind.Command("/usr/local/bin/charter", "/srv/my root"))
		}
	}
	if HookKind(0) != ClaudeStop || ClaudeStop.Command("/b", "") != HookCommand("/b", "") {
		t.Error("the zero kind is not Claude's")
	}
}
