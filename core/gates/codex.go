package gates

import (
	"strings"

	"github.com/agentkit/charter/core/jsonedit"
)

// Codex's Stop hook, read for this design (and cited in docs/gates.md):
//
//   - https://developers.openai.com/codex/hooks: hooks are on by default
//     (`[features] hooks = false` turns them off; `codex_hooks` is the old
//     name); Codex reads ~/.codex/hooks.json (the Codex home, $CODEX_HOME)
//     and <repo>/.codex/hooks.json, the latter only in a trusted project;
//     every matching hook from every file runs; a hook that is not managed
//     runs only after the user has reviewed and trusted its exact
//     definition (/hooks in the CLI), and a changed definition is reviewed
//     again.
//   - openai/codex codex-rs/config (HookHandlerConfig): hooks.json has
//     Claude Code's shape, {"hooks": {"Stop": [{"hooks": [{"type":
//     "command", "command": "…", "timeout": N}]}]}}; a command without a
//     timeout gets 600 s (codex-rs/hooks discovery).
//   - codex-rs/hooks/schema/generated/stop.command.input.schema.json: the
//     Stop input is Claude's fields (session_id, cwd, hook_event_name,
//     stop_hook_active, transcript_path and last_assistant_message, both
//     nullable) plus turn_id and model. StopInput reads it as it is.
//   - stop.command.output.schema.json and codex-rs/hooks/src/events/stop.rs:
//     exit 0 with no output lets the agent stop; exit 0 with
//     {"decision": "block", "reason": "…"} (a non-blank reason) blocks, and
//     the reason becomes the agent's continuation prompt; {"systemMessage":
//     "…"} is shown to the user as a warning without blocking; no other
//     field is allowed. Exit 2 with stderr blocks too, as in Claude Code,
//     but JSON is the documented form; any other exit code is a failed hook
//     that does not block.
//
// Codex runs a command hook through the user's shell ($SHELL -lc; cmd.exe
// /C on Windows), so the command is quoted as for Claude Code. cmd.exe
// reads no single quotes: on Windows only a charter path without spaces
// (or other characters shellQuote quotes) makes a working Codex entry.

// HookKind is an agent's Stop hook: the subcommand that answers it, the
// agent apply installs it for and the protocol it answers in. The zero
// value is Claude Code's.
type HookKind int

const (
	ClaudeStop HookKind = iota // `gate hook claude-stop`: exit 2 and stderr block
	CodexStop                  // `gate hook codex-stop`: a JSON decision on stdout blocks
)

// String is the subcommand: claude-stop or codex-stop.
func (k HookKind) String() string {
	if k == CodexStop {
		return "codex-stop"
	}
	return "claude-stop"
}

// Agent is the agent's name in charter (--agent).
func (k HookKind) Agent() string {
	if k == CodexStop {
		return "codex"
	}
	return "claude"
}

// product names the agent in messages.
func (k HookKind) product() string {
	if k == CodexStop {
		return "Codex"
	}
	return "Claude Code"
}

// Suffix ends the command of charter's entry; an entry whose command ends
// with it is charter's.
func (k HookKind) Suffix() string { return "gate hook " + k.String() }

// Command is the command of charter's entry: HookCommand with this kind's
// subcommand.
func (k HookKind) Command(binary, root string) string {
	return hookCommand(binary, root, k.Suffix())
}

// answer turns a result in Claude Code's protocol into this kind's. For
// Codex a block (exit 2, the text on stderr) becomes exit 0 with
// {"decision":"block","reason":text} on stdout; the rest is the same in
// both: exit 0 silent, exit 0 with {"systemMessage": …}, exit 1.
func (k HookKind) answer(res HookResult) HookResult {
	if k != CodexStop || res.ExitCode != 2 {
		return res
	}
	out := jsonedit.Encode(struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
	}{"block", strings.TrimRight(res.Stderr, "\n")}, "", "", false, "\n")
	return HookResult{Stdout: out + "\n", Decision: res.Decision}
}
