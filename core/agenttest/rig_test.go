package agenttest

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// rig is the setup the permission and MCP-server tests share: a world,
// charter's environment with the agent's own variables (its home under the
// world's HOME), charter's commands, and the agent's run against a fresh
// mock. What differs per agent is one entry of rigs, so a test of a new
// agent adds an entry instead of another copy of HOME, home, mock and run.
type rig struct {
	t     *testing.T
	w     world
	env   []string
	agent string
	ran   bool // the agent ran once: one-time files (Codex's provider) exist
}

// agentRig is one agent's part of a rig.
type agentRig struct {
	bin string                 // the command in CHARTER_AGENTS
	env func(w world) []string // variables beyond charter's
	// run runs the agent once in the project against m, whose base URL it
	// takes under prefix, with flags, and returns its output. Where a run
	// must end with the mock's reply (Claude, Codex) it fails the test
	// otherwise; where a refused call may end it with an error (Gemini),
	// the requests are the proof and the caller checks the output.
	run func(r *rig, m *Mock, prefix string, flags ...string) string
}

var rigs = map[string]agentRig{
	"claude": {bin: "claude", run: runClaudeAt},
	"codex": {bin: "codex", run: runCodexAt, env: func(w world) []string {
		return []string{"CODEX_HOME=" + filepath.Join(w.home, ".codex"), "MOCK_KEY=dummy", "TMPDIR=" + filepath.Join(w.home, "tmp")}
	}},
	"gemini":  {bin: "gemini", run: runGeminiAt},
	"copilot": {bin: "copilot", run: runCopilotAt},
}

// newRig is agent's rig in w, with extra variables for charter (a policy
// file). It skips or, under CI=true, fails when the agent is missing.
func newRig(t *testing.T, agent string, w world, extra ...string) *rig {
	t.Helper()
	a, ok := rigs[agent]
	if !ok {
		t.Fatalf("no rig for agent %q (rig_test.go)", agent)
	}
	bin(t, a.bin)
	if a.env != nil {
		extra = append(extra, a.env(w)...)
	}
	return &rig{t: t, w: w, env: charterEnv(t, w, extra...), agent: agent}
}

// policyRig is agent's rig in a world whose policy file holds policy.
func policyRig(t *testing.T, agent, policy string) *rig {
	t.Helper()
	w := newWorld(t)
	write(t, w.project, ".charter/settings.yaml", "")
	write(t, w.home, "policy.yaml", policy)
	return newRig(t, agent, w, "AGENTKIT_POLICY_FILE="+filepath.Join(w.home, "policy.yaml"))
}

// charter runs charter with args in the project and fails the test unless
// it succeeds; it returns the output.
func (r *rig) charter(args ...string) string {
	r.t.Helper()
	out, err := run(r.t, r.w.project, r.env, charter(r.t), args...)
	if err != nil {
		r.t.Fatalf("charter %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// apply runs `charter apply --agent AGENT` at level ("user" or "project").
func (r *rig) apply(level string) {
	r.t.Helper()
	args := []string{"apply", "--agent", r.agent}
	if level == "project" {
		args = append(args, "--project")
	}
	r.charter(args...)
}

// dir is the folder a level's files go below: the home or the project.
func (r *rig) dir(level string) string {
	if level == "project" {
		return r.w.project
	}
	return r.w.home
}

// in is r for subtest t (a failure there fails t, not its parent).
func (r *rig) in(t *testing.T) *rig {
	c := *r
	c.t = t
	return &c
}

// run runs the agent against a new mock (see agentRig.run) and returns
// the mock and the agent's output.
func (r *rig) run(prefix string, flags ...string) (*Mock, string) {
	r.t.Helper()
	m := newMock(r.t)
	out := rigs[r.agent].run(r, m, prefix, flags...)
	r.ran = true
	return m, out
}

// runClaudeAt runs `claude -p hi --output-format json` and fails unless
// it ends with the mock's reply.
func runClaudeAt(r *rig, m *Mock, prefix string, flags ...string) string {
	t := r.t
	t.Helper()
	env := append(append([]string(nil), r.env...), "ANTHROPIC_BASE_URL="+m.URL+prefix, "ANTHROPIC_API_KEY=dummy",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1")
	out, err := run(t, r.w.project, env, bin(t, "claude"), append([]string{"-p", "hi", "--output-format", "json"}, flags...)...)
	var res struct {
		IsError bool   `json:"is_error"`
		Result  string `json:"result"`
	}
	if err != nil || json.Unmarshal([]byte(out), &res) != nil || res.IsError || res.Result != anthropicReply {
		t.Fatalf("claude -p hi: %v\n%s\nrequests: %s", err, out, requestLines(m))
	}
	return out
}

// runCodexAt points Codex at the mock and trusts the project (Codex reads
// a project's .codex/ only then) before its first run, then runs `codex
// exec hi` and fails unless it ends with the mock's reply.
func runCodexAt(r *rig, m *Mock, prefix string, flags ...string) string {
	t := r.t
	t.Helper()
	if !r.ran {
		writeCodexConfig(t, r.w, m)
	}
	args := append([]string{"exec", "--skip-git-repo-check", "--color", "never",
		"-c", "model_providers.mock.base_url=" + tomlQuote(m.URL+prefix+"/v1")}, flags...)
	out, err := run(t, r.w.project, r.env, bin(t, "codex"), append(args, "hi")...)
	if err != nil || !strings.Contains(out, responsesReply) {
		t.Fatalf("codex exec: %v\n%s\nrequests: %s", err, out, requestLines(m))
	}
	return out
}

// runGeminiAt merges the API-key auth type into ~/.gemini/settings.json
// and runs `gemini -p hi`; the run may end either way.
func runGeminiAt(r *rig, m *Mock, prefix string, flags ...string) string {
	t := r.t
	t.Helper()
	writeGeminiSettings(t, r.w)
	env := append(append(append([]string(nil), r.env...), geminiEnv(r.w, m)[len(r.w.env()):]...), "GOOGLE_GEMINI_BASE_URL="+m.URL+prefix)
	out, _ := run(t, r.w.project, env, bin(t, "gemini"), append([]string{"-p", "hi"}, flags...)...)
	return out
}

// runCopilotAt runs `copilot -p hi --allow-all-tools` with its
// bring-your-own-key provider (no GitHub login) and fails unless it ends
// with the mock's reply.
func runCopilotAt(r *rig, m *Mock, prefix string, flags ...string) string {
	t := r.t
	t.Helper()
	env := append(append([]string(nil), r.env...), "COPILOT_PROVIDER_BASE_URL="+m.URL+prefix+"/v1", "COPILOT_PROVIDER_API_KEY=dummy",
		"COPILOT_MODEL=gpt-4o", "COPILOT_OFFLINE=true")
	out, err := run(t, r.w.project, env, bin(t, "copilot"), append([]string{"-p", "hi", "--allow-all-tools"}, flags...)...)
	if err != nil || !strings.Contains(out, chatReply) {
		t.Fatalf("copilot -p hi: %v\n%s\nrequests: %s", err, out, requestLines(m))
	}
	return out
}
