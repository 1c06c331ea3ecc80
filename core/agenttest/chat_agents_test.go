package agenttest

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// The agents beyond the measured four that speak OpenAI Chat Completions
// to a provider of the user's choosing (OpenCode, Qwen Code, …) are run
// at project level only: `charter apply --project --agent NAME` in a fresh
// repository holding the library of tag "proj", then one turn against the
// mock.

// applyProject writes the project library, runs `charter apply --project
// --agent agent` and returns its report and the environment to run in.
func applyProject(t *testing.T, agent string) (world, []string, applyReport) {
	t.Helper()
	w := newWorld(t)
	writeCharterItems(t, filepath.Join(w.project, ".charter"), "proj")
	write(t, w.project, ".charter/settings.yaml", "")
	env := charterEnv(t, w)
	r, out, err := applyJSON(t, w, env, "--project", "--agent", agent)
	if err != nil {
		t.Fatalf("charter apply --project --agent %s: %v\n%s", agent, err, out)
	}
	return w, env, r
}

// firstAgentTurn is the text of the first Chat Completions request that
// offers the model tools: the request that starts the agent's turn. Some
// agents first ask the model for a session title, with no tools and none
// of the instructions.
func firstAgentTurn(t *testing.T, m *Mock) string {
	t.Helper()
	for _, r := range chatTurns(m) {
		var q struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if json.Unmarshal(r.Body, &q) == nil && len(q.Tools) > 0 {
			return modelText(t, r.Body)
		}
	}
	t.Fatalf("no Chat Completions request with tools reached the mock; requests: %s", requestLines(m))
	return ""
}

// mockProviderConfig is an OpenCode-style config (OpenCode, Kilo) whose
// only provider is m, as an OpenAI-compatible API, and whose model is its.
func mockProviderConfig(m *Mock) string {
	cfg, _ := json.Marshal(map[string]any{
		"provider": map[string]any{"mock": map[string]any{"npm": "@ai-sdk/openai-compatible",
			"options": map[string]any{"baseURL": m.URL + "/v1", "apiKey": "dummy"}, "models": map[string]any{"m": map[string]any{}}}},
		"model": "mock/m", "autoupdate": false, "share": "disabled"})
	return string(cfg)
}

// checkWholeRules holds an agent that loads every rule file whole (it
// cannot scope) to charter's block once and each rule once, the glob rule
// with the line naming its glob.
func checkWholeRules(t *testing.T, start string) {
	t.Helper()
	t.Run("proj/block", func(t *testing.T) { seenOnce(t, start, markBlock("proj"), "charter's block") })
	t.Run("proj/rule-always", func(t *testing.T) { seenOnce(t, start, markAlways("proj"), "always-on rule always-proj") })
	t.Run("proj/rule-glob", func(t *testing.T) {
		seenOnce(t, start, markGlob("proj"), "glob rule go-proj")
		meantFor(t, start, "proj")
	})
}
