package agenttest

import (
	"path/filepath"
	"strings"
	"testing"
)

// runKilo runs `kilo run prompt` in the project against m. Kilo's CLI is
// OpenCode's: the mock is an OpenAI-compatible provider in a config file
// named by KILO_CONFIG. It fails the test unless the run ends with the
// mock's reply.
func runKilo(t *testing.T, w world, env []string, m *Mock, prompt string) {
	t.Helper()
	write(t, w.home, "kilo-mock.json", mockProviderConfig(m))
	env = append(env, "KILO_CONFIG="+filepath.Join(w.home, "kilo-mock.json"), "KILO_DISABLE_MODELS_FETCH=1",
		"KILO_DISABLE_AUTOUPDATE=1", "KILO_DISABLE_DEFAULT_PLUGINS=1", "KILO_DISABLE_LSP_DOWNLOAD=1", "KILO_DISABLE_SHARE=1",
		"KILO_DISABLE_SESSION_INGEST=1", "KILO_DISABLE_CODEBASE_INDEXING=1")
	out, err := run(t, w.project, env, bin(t, "kilo"), "run", prompt)
	if err != nil || !strings.Contains(out, chatReply) {
		t.Fatalf("kilo run %q: %v\n%s\nrequests: %s", prompt, err, out, requestLines(m))
	}
}

// TestKiloLoadsCharter: after `charter apply --project --agent kilo`,
// `kilo run` tells the model charter's block once (.kilo/rules/charter.md),
// each rule once from its own file in .kilo/rules/ (Kilo loads every rule
// file whole, so the glob rule comes with the line naming its glob) and
// the skill once in its skill list.
func TestKiloLoadsCharter(t *testing.T) {
	bin(t, "kilo")
	w, env, _ := applyProject(t, "kilo")
	m := newMock(t)
	runKilo(t, w, env, m, "hi")
	start := firstAgentTurn(t, m)

	checkWholeRules(t, start)
	t.Run("proj/skill", func(t *testing.T) { seenOnce(t, start, markSkill("proj"), "skill skill-proj") })
}
