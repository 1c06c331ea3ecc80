package agenttest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ownFiles are the instruction files the repository of
// TestEachAgentAfterApplyAll brings, each with a line of its own, so
// that a request shows which of them the agent loaded.
var ownFiles = map[string]string{
	"CLAUDE.md":                       "Own line of CLAUDE.md 1c7e",
	"AGENTS.md":                       "Own line of AGENTS.md 2d8f",
	"GEMINI.md":                       "Own line of GEMINI.md 3e9a",
	".github/copilot-instructions.md": "Own line of copilot-instructions 4fab",
}

// budgetReport is the budget part of `charter apply --json`.
type budgetReport struct {
	Budget []struct {
		Agent string
		Bytes int
		Files []string
	} `json:"budget"`
}

// TestEachAgentAfterApplyAll: in a repository with every agent's
// instruction file, `charter apply --project --agent all` places charter's
// block and rules so that each real agent tells the model its block once
// and each rule once (issue 33 #7), and each agent's budget line counts
// exactly the files it loaded: their bytes on disk add up to the line, each
// counted file reached the model, and every file the agent loaded is
// counted.
func TestEachAgentAfterApplyAll(t *testing.T) {
	for _, a := range []string{"claude", "codex", "gemini", "copilot"} {
		bin(t, a)
	}
	w := newWorld(t)
	writeCharterItems(t, filepath.Join(w.project, ".charter"), "proj")
	write(t, w.project, ".charter/settings.yaml", "")
	for rel, line := range ownFiles {
		write(t, w.project, rel, "# "+line+"\n")
	}
	env := charterEnv(t, w)
	text, err := run(t, w.project, env, charter(t), "apply", "--project", "--agent", "all", "--json")
	if err != nil {
		t.Fatalf("charter apply --project --agent all: %v\n%s", err, text)
	}
	var rep budgetReport
	if err := json.Unmarshal([]byte(text), &rep); err != nil {
		t.Fatalf("apply --json: %v\n%s", err, text)
	}
	if out, err := run(t, w.project, env, charter(t), "apply", "--project", "--agent", "all", "--check"); err != nil {
		t.Fatalf("apply --check after apply: %v\n%s", err, out)
	}

	sent := map[string]string{}
	mc := newMock(t)
	runClaude(t, w, env, mc, "hi")
	sent["claude"] = anthropicTurn(t, mc, 0)
	mx := newMock(t)
	writeCodexConfig(t, w, mx)
	runCodex(t, w, "hi")
	sent["codex"] = firstResponsesTurn(t, mx)
	mg := newMock(t)
	writeGeminiSettings(t, w)
	runGemini(t, w, mg, "hi")
	sent["gemini"] = firstGeminiTurn(t, mg)
	mp := newMock(t)
	runCopilot(t, w, env, mp, "hi")
	sent["copilot"] = firstChatTurn(t, mp)

	for _, agent := range []string{"claude", "codex", "gemini", "copilot"} {
		s := sent[agent]
		t.Run(agent+"/block", func(t *testing.T) { seenOnce(t, s, markBlock("proj"), "charter's block") })
		t.Run(agent+"/rule-always", func(t *testing.T) { seenOnce(t, s, markAlways("proj"), "always-on rule always-proj") })
		t.Run(agent+"/rule-glob", func(t *testing.T) {
			if n := count(s, markGlob("proj")); n > 1 {
				t.Errorf("glob rule go-proj reached the model %d times at start", n)
			}
		})
		t.Run(agent+"/budget", func(t *testing.T) { checkBudget(t, w, rep, agent, s) })
	}
}

// checkBudget holds agent's budget line to what it sent the model.
func checkBudget(t *testing.T, w world, rep budgetReport, agent, sent string) {
	t.Helper()
	i := slices.IndexFunc(rep.Budget, func(b struct {
		Agent string
		Bytes int
		Files []string
	}) bool {
		return b.Agent == agent
	})
	if i < 0 {
		t.Fatalf("no budget line for %s", agent)
	}
	b := rep.Budget[i]
	sum := 0
	for _, rel := range b.Files {
		data, err := os.ReadFile(filepath.Join(w.project, rel))
		if err != nil {
			t.Fatalf("budget counts %s: %v", rel, err)
		}
		sum += len(data)
		if probe := firstText(string(data)); !strings.Contains(sent, probe) {
			t.Errorf("budget counts %s, but %q from it never reached the model", rel, probe)
		}
	}
	if sum != b.Bytes {
		t.Errorf("budget line says %d bytes; the files it counts (%v) hold %d", b.Bytes, b.Files, sum)
	}
	for rel, line := range ownFiles {
		if strings.Contains(sent, line) && !slices.Contains(b.Files, rel) {
			t.Errorf("%s loaded %s, which its budget line does not count (%v)", agent, rel, b.Files)
		}
	}
	t.Logf("%s: %d bytes from %v", agent, b.Bytes, b.Files)
}

// firstText is the first line of a file that says something: not blank,
// not an HTML comment (the block's markers), not frontmatter.
func firstText(data string) string {
	front := strings.HasPrefix(data, "---\n")
	for i, l := range strings.Split(data, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case front && l == "---" && i > 0:
			front = false
		case front, l == "", strings.HasPrefix(l, "<!--"):
		default:
			return strings.TrimLeft(l, "# ")
		}
	}
	return data
}
