package agenttest

import (
	"path/filepath"
	"strings"
	"testing"
)

// runOpenCode runs `opencode run prompt` in the project against m, with
// the mock as an OpenAI-compatible provider in a config file named by
// OPENCODE_CONFIG, and fails the test unless the run ends with the mock's
// reply. OpenCode still installs its plugin package from npm into its
// config folder on the first run.
func runOpenCode(t *testing.T, w world, env []string, m *Mock, prompt string) {
	t.Helper()
	path := filepath.Join(w.home, "opencode-mock.json")
	write(t, w.home, "opencode-mock.json", mockProviderConfig(m))
	env = append(env, "OPENCODE_CONFIG="+path, "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1",
		"OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1")
	out, err := run(t, w.project, env, bin(t, "opencode"), "run", prompt)
	if err != nil || !strings.Contains(out, chatReply) {
		t.Fatalf("opencode run %q: %v\n%s\nrequests: %s", prompt, err, out, requestLines(m))
	}
}

// TestOpenCodeLoadsCharter: after `charter apply --project --agent
// opencode`, `opencode run` tells the model charter's block once (from
// AGENTS.md), each rule once inside it (OpenCode cannot scope a rule, so
// the glob rule comes with the line naming its glob) and the skill once
// in its skill list. OpenCode lists no commands to the model (they are
// the user's slash commands) and charter writes it no subagents.
func TestOpenCodeLoadsCharter(t *testing.T) {
	bin(t, "opencode")
	w, env, _ := applyProject(t, "opencode")
	m := newMock(t)
	runOpenCode(t, w, env, m, "hi")
	start := firstAgentTurn(t, m)
	checkStartItems(t, start, "proj")
}
