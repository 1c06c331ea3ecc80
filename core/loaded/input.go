// Package loaded records which of charter's projected files an agent
// reported loading, per session, and answers "was this item loaded?"
// (SPEC §12, issue 27 "Proof of what was loaded").
//
// Only Claude Code reports it: its InstructionsLoaded hook event fires for
// each CLAUDE.md and .claude/rules/*.md it loads into context, at session
// start and again when a path-scoped rule or a nested CLAUDE.md is loaded
// later (https://code.claude.com/docs/en/hooks, "InstructionsLoaded").
// The event has no decision control: the hook only observes. Codex,
// Gemini CLI, Cursor and Copilot have no such event (docs/content.md).
package loaded

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// MaxInput caps what the hook reads of stdin: the event is a few paths,
// well under a kilobyte.
const MaxInput = 64 << 10

// Input is Claude Code's InstructionsLoaded hook input, as its hooks
// reference documents it. Unknown fields are ignored.
type Input struct {
	SessionID     string `json:"session_id"`
	Cwd           string `json:"cwd"`
	HookEventName string `json:"hook_event_name"`
	// FilePath is the absolute path of the instruction file loaded.
	FilePath string `json:"file_path"`
	// MemoryType is User, Project, Local or Managed.
	MemoryType string `json:"memory_type"`
	// LoadReason is session_start, nested_traversal, path_glob_match,
	// include or compact.
	LoadReason      string   `json:"load_reason"`
	Globs           []string `json:"globs"`
	TriggerFilePath string   `json:"trigger_file_path"`
}

// ReadInput decodes one event from r, reading at most MaxInput bytes.
func ReadInput(r io.Reader) (Input, error) {
	var in Input
	b, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return in, fmt.Errorf("read the InstructionsLoaded hook input: %w", err)
	}
	if len(b) > MaxInput {
		return in, fmt.Errorf("the InstructionsLoaded hook input is larger than %d bytes: ignored", MaxInput)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return in, errors.New("no hook input on stdin: Claude Code runs this command as its InstructionsLoaded hook, which passes the event as JSON")
	}
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(&in); err != nil {
		return in, errors.New("the hook input is not the JSON object Claude Code sends: ignored")
	}
	if d.More() {
		return in, errors.New("the hook input holds more than one JSON value: ignored")
	}
	switch {
	case in.HookEventName != "" && in.HookEventName != "InstructionsLoaded":
		return in, fmt.Errorf("this hook handles InstructionsLoaded events, not %q: install it under hooks.InstructionsLoaded", in.HookEventName)
	case in.SessionID == "":
		return in, errors.New("the hook input has no session_id: ignored")
	case in.FilePath == "":
		return in, errors.New("the hook input has no file_path: ignored")
	}
	return in, nil
}
