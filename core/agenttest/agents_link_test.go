package agenttest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeMDLinkedToAgentsMD: a repository that commits CLAUDE.md ->
// AGENTS.md, as many do, gets one file with one charter block (issue 32):
// after `apply --project --agent claude,codex` the link is kept, apply
// --check passes, and both real agents tell the model the project's block
// exactly once.
func TestClaudeMDLinkedToAgentsMD(t *testing.T) {
	bin(t, "claude")
	bin(t, "codex")
	w := newWorld(t)
	write(t, w.project, ".charter/settings.yaml", "")
	write(t, w.project, ".charter/rules/always-proj.md", "---\ndescription: Always on\n---\n"+markAlways("proj")+"\n")
	write(t, w.project, "AGENTS.md", "# Team notes\n")
	if err := os.Symlink("AGENTS.md", filepath.Join(w.project, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	env := charterEnv(t, w, "CODEX_HOME="+filepath.Join(w.home, ".codex"))
	for _, args := range [][]string{{"apply", "--project", "--agent", "claude,codex"}, {"apply", "--project", "--agent", "claude,codex", "--check"}} {
		if out, err := run(t, w.project, env, charter(t), args...); err != nil {
			t.Fatalf("charter %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if dest, err := os.Readlink(filepath.Join(w.project, "CLAUDE.md")); err != nil || dest != "AGENTS.md" {
		t.Fatalf("CLAUDE.md is no longer the link: %q %v", dest, err)
	}
	data, _ := os.ReadFile(filepath.Join(w.project, "AGENTS.md"))
	if n := strings.Count(string(data), "<!-- charter:begin -->"); n != 1 {
		t.Fatalf("AGENTS.md holds %d charter blocks:\n%s", n, data)
	}

	mc := newMock(t)
	runClaude(t, w, env, mc, "hi")
	t.Run("claude/block", func(t *testing.T) {
		once(t, anthropicTurn(t, mc, 0), markBlock("proj"), "charter's block through CLAUDE.md")
	})
	// Claude reads Codex's block through the link, rules and all: charter
	// writes no .claude/rules/ copy that would give it the rule twice.
	t.Run("claude/rule", func(t *testing.T) {
		once(t, anthropicTurn(t, mc, 0), markAlways("proj"), "the always-on rule in the block")
	})

	mx := newMock(t)
	writeCodexConfig(t, w, mx)
	runCodex(t, w, "hi")
	sent := firstResponsesTurn(t, mx)
	t.Run("codex/block", func(t *testing.T) { once(t, sent, markBlock("proj"), "charter's block in AGENTS.md") })
	t.Run("codex/rule", func(t *testing.T) { once(t, sent, markAlways("proj"), "the always-on rule in the block") })
}
