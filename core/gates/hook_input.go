package gates

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The Stop input, as read for this design in Claude Code's hooks reference
// (https://code.claude.com/docs/en/hooks, "Stop input", "SubagentStop
// input") and Codex's (see codex.go):
//
//   - hook_event_name is "Stop" for the main agent's stop, "SubagentStop"
//     when a subagent (Task tool) finishes; both carry stop_hook_active,
//     and a block keeps that subagent running. A subagent's stop is not the
//     end of the session's work: the main agent goes on, and its own Stop
//     runs the gates. So a SubagentStop is let through (exit 0, no gate,
//     the session's block count untouched): blocking it would keep an
//     Explore agent at work on the project's failing tests, and would spend
//     the main agent's blocks. Codex's SubagentStop (openai/codex#22873)
//     is the same event for its thread-spawned subagents.
//   - Since Claude Code 2.1.145, Stop and SubagentStop also carry
//     background_tasks and session_crons, which, in the reference's words,
//     let hooks tell "session is done" from "session is paused waiting for
//     background work to wake it". A stop with a background task still
//     running is such a pause: no gate runs (the work is not finished; it
//     resumes when the task reports), exit 0. session_crons alone is not a
//     pause: a recurring cron (/loop) may stay for the whole session, and
//     the stop would never be gated.
//   - cwd is a common field, but a payload without it is still a stop of
//     the session: the hook then uses its own working directory, where the
//     agent starts its hooks.

// maxInput bounds what the hook reads from stdin; the Stop event is small,
// last_assistant_message aside.
const maxInput = 8 << 20

// StopInput is Claude Code's (or Codex's) Stop hook input. Unknown fields
// are ignored.
type StopInput struct {
	SessionID            string `json:"session_id"`
	TranscriptPath       string `json:"transcript_path"`
	Cwd                  string `json:"cwd"`
	PermissionMode       string `json:"permission_mode"`
	HookEventName        string `json:"hook_event_name"`
	StopHookActive       bool   `json:"stop_hook_active"`
	LastAssistantMessage string `json:"last_assistant_message"`
	// BackgroundTasks are the session's background tasks (Claude Code
	// 2.1.145+): shells, subagents or workflows started in the background.
	// Read loosely: a shape this version does not know still counts.
	BackgroundTasks []json.RawMessage `json:"background_tasks"`
}

// runningTask reports whether a background_tasks element is a task that
// still runs, and its id: one whose status does not say it is over (the
// list holds running tasks; a task without a status is one of them).
func runningTask(raw json.RawMessage) (id string, running bool) {
	var t struct {
		ID     any `json:"id"`
		Status any `json:"status"`
	}
	if json.Unmarshal(raw, &t) == nil {
		switch t.Status {
		case "completed", "failed", "killed", "cancelled", "canceled", "stopped":
			return "", false
		}
	}
	if t.ID != nil {
		id = fmt.Sprint(t.ID) + " "
	}
	return id, true
}

// notGated says why this stop is not one to gate, or "".
func (in StopInput) notGated() string {
	if in.HookEventName == "SubagentStop" {
		return "a subagent's stop: the main agent's Stop runs the gates"
	}
	for _, t := range in.BackgroundTasks {
		if id, running := runningTask(t); running {
			return "a pause: background task " + id + "still runs, so the work is not finished"
		}
	}
	return ""
}

// ReadStopInput decodes the hook's stdin, as kind's agent sends it. It must
// be one JSON object with a session_id; a hook_event_name, when given, must
// be Stop or SubagentStop. A missing cwd is left empty (RunHook uses the
// working directory).
func ReadStopInput(r io.Reader, kind HookKind) (StopInput, error) {
	var in StopInput
	b, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return in, fmt.Errorf("read the Stop hook input: %w", err)
	}
	if len(b) > maxInput {
		return in, fmt.Errorf("the Stop hook input is larger than %d bytes", maxInput)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return in, fmt.Errorf("no Stop hook input on stdin: this command is run by %s as a Stop hook, which passes the event as JSON", kind.product())
	}
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(&in); err != nil {
		return in, fmt.Errorf("the Stop hook input is not the JSON object %s sends: %v", kind.product(), err)
	}
	if d.More() {
		return in, errors.New("the Stop hook input holds more than one JSON value")
	}
	switch {
	case in.SessionID == "":
		return in, errors.New("the Stop hook input has no session_id")
	case in.HookEventName != "" && in.HookEventName != "Stop" && in.HookEventName != "SubagentStop":
		return in, fmt.Errorf("this hook handles Stop events, not %s: install it under hooks.Stop", in.HookEventName)
	}
	return in, nil
}
