package agenttest

import (
	"path/filepath"
	"strings"
	"testing"
)

// runContinue runs `cn -p prompt --config FILE` in the project against m:
// FILE is a Continue config whose only model is the mock (provider openai,
// apiBase …/v1), so no hub sign-in is needed. It fails the test unless the
// run ends with the mock's reply.
func runContinue(t *testing.T, w world, env []string, m *Mock, prompt string) {
	t.Helper()
	write(t, w.home, "continue-mock.yaml", "name: mock\nversion: 1.0.0\nschema: v1\nmodels:\n  - name: m\n    provider: openai\n"+
		"    model: m\n    apiBase: "+m.URL+"/v1\n    apiKey: dummy\n    roles: [chat]\n")
	out, err := run(t, w.project, env, bin(t, "cn"), "-p", prompt, "--config", filepath.Join(w.home, "continue-mock.yaml"))
	if err != nil || !strings.Contains(out, chatReply) {
		t.Fatalf("cn -p %q: %v\n%s\nrequests: %s", prompt, err, out, requestLines(m))
	}
}

// TestContinueLoadsCharter: after `charter apply --project --agent
// continue`, `cn -p` tells the model charter's block once
// (.continue/rules/charter.md), each rule once from .continue/rules/ (the
// CLI would drop a globs: rule, so the glob rule comes whole with the line
// naming its glob) and the skill once in its Skills tool.
func TestContinueLoadsCharter(t *testing.T) {
	bin(t, "cn")
	w, env, _ := applyProject(t, "continue")
	m := newMock(t)
	runContinue(t, w, env, m, "say hi")
	start := firstAgentTurn(t, m)

	checkWholeRules(t, start)
	t.Run("proj/skill", func(t *testing.T) { seenOnce(t, start, markSkill("proj"), "skill skill-proj") })
}
