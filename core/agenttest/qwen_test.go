package agenttest

import (
	"strings"
	"testing"
)

// runQwen runs `qwen -p prompt --auth-type openai` in the project against
// m (Qwen Code's OpenAI-compatible provider, OPENAI_BASE_URL) and fails
// the test unless the run ends with the mock's reply.
func runQwen(t *testing.T, w world, env []string, m *Mock, prompt string) {
	t.Helper()
	env = append(env, "OPENAI_BASE_URL="+m.URL+"/v1", "OPENAI_API_KEY=dummy", "OPENAI_MODEL=m")
	out, err := run(t, w.project, env, bin(t, "qwen"), "-p", prompt, "--auth-type", "openai")
	if err != nil || !strings.Contains(out, chatReply) {
		t.Fatalf("qwen -p %q: %v\n%s\nrequests: %s", prompt, err, out, requestLines(m))
	}
}

// TestQwenLoadsCharter: after `charter apply --project --agent qwen`,
// `qwen -p` tells the model charter's block once (QWEN.md), the always-on
// rule once (.qwen/rules/, no paths:), the skill once and the command
// once (Qwen lists commands among its skills), and not the glob rule's
// body: its paths: rule waits for a matching file.
func TestQwenLoadsCharter(t *testing.T) {
	bin(t, "qwen")
	w, env, _ := applyProject(t, "qwen")
	m := newMock(t)
	runQwen(t, w, env, m, "hi")
	start := firstAgentTurn(t, m)

	t.Run("proj/block", func(t *testing.T) { seenOnce(t, start, markBlock("proj"), "charter's block") })
	t.Run("proj/rule-always", func(t *testing.T) { seenOnce(t, start, markAlways("proj"), "always-on rule always-proj") })
	t.Run("proj/rule-glob-waits", func(t *testing.T) {
		if n := count(start, markGlob("proj")); n != 0 {
			t.Errorf("glob rule go-proj: its body reached the model %d times at start, want none before a .go file is read", n)
		}
	})
	t.Run("proj/skill", func(t *testing.T) { seenOnce(t, start, markSkill("proj"), "skill skill-proj") })
	t.Run("proj/command", func(t *testing.T) {
		seenOnce(t, start, markCmdDesc("proj"), "command cmd-proj in the skill list")
		if n := count(start, markCommand("proj")); n != 0 {
			t.Errorf("command cmd-proj: its body reached the model %d times before anyone ran it", n)
		}
	})
}
