package apply

import "github.com/agentkit/charter/core/gates"

// CodexHookFile is Codex's hooks file: in the Codex home beside AGENTS.md
// (~/.codex, $CODEX_HOME, a companion profile's directory) and in a
// project's .codex directory. It holds the same "hooks" object as Claude
// Code's settings.json, so apply keeps charter's Stop entry there the same
// way (see gates.HookKind).
const CodexHookFile = "hooks.json"

// stopHook is where an agent reads the Stop hook apply installs for it.
type stopHook struct {
	kind       gates.HookKind
	file       string // beside the user-level instruction file
	projectDir string // the directory in a project that holds file
}

// stopHookOf tells whether apply installs a Stop hook for the agent, and
// where.
func stopHookOf(agent string) (stopHook, bool) {
	switch agent {
	case gates.ClaudeStop.Agent():
		return stopHook{gates.ClaudeStop, HookFile, ".claude"}, true
	case gates.CodexStop.Agent():
		return stopHook{gates.CodexStop, CodexHookFile, ".codex"}, true
	}
	return stopHook{}, false
}
