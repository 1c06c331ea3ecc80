package projection

import (
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
)

func parsed(t *testing.T, k content.Kind, name, src string) []content.Item {
	t.Helper()
	it, ps := content.Parse(k, name, "/x/"+name+".md", []byte(src), []string{"claude", "cursor"})
	if len(ps) > 0 {
		t.Fatalf("%v", ps)
	}
	return []content.Item{*it}
}

func projected(t *testing.T, agent string, items []content.Item) string {
	t.Helper()
	a, ok := (&core.System{}).AgentTable.Lookup(agent)
	if !ok {
		t.Fatalf("no agent %s", agent)
	}
	out := Project(a, items, Options{Level: content.LevelProject, Autoload: true})
	if len(out.Files) == 0 {
		t.Fatalf("%s: no file", agent)
	}
	return string(out.Files[0].Data)
}

// A command's allowed-tools, model and disable-model-invocation reach
// Claude's file only; a key no agent owns reaches every agent's; a peer's
// key none.
func TestCommandKeysPerAgent(t *testing.T) {
	items := parsed(t, content.KindCommand, "review", "---\ndescription: Review\nallowed-tools: Bash(git diff:*), Read\nmodel: sonnet\nagent: plan\ntargets: [\"*\"]\n---\nReview.\n")
	claude := projected(t, "claude", items)
	if !strings.Contains(claude, "\nallowed-tools: Bash(git diff:*), Read\nmodel: sonnet\nagent: plan\n---\n") || strings.Contains(claude, "targets") {
		t.Fatalf("claude:\n%s", claude)
	}
	opencode := projected(t, "opencode", items)
	if strings.Contains(opencode, "allowed-tools") || strings.Contains(opencode, "model") || !strings.Contains(opencode, "agent: plan") || strings.Contains(opencode, "targets") {
		t.Fatalf("opencode:\n%s", opencode)
	}
}

// A skill's Claude-only model and rulesync's targets stay out of the other
// agents' SKILL.md; the Agent Skills keys reach every agent.
func TestSkillKeysPerAgent(t *testing.T) {
	items := parsed(t, content.KindSkill, "lint", "---\nname: lint\ndescription: Lint.\ntargets: [\"*\"]\nmodel: inherit\nallowed-tools: Read\n---\nRun it.\n")
	if got := projected(t, "claude", items); got != "---\nname: lint\ndescription: Lint.\nmodel: inherit\nallowed-tools: Read\n---\nRun it.\n" {
		t.Fatalf("claude:\n%s", got)
	}
	if got := projected(t, "codex", items); got != "---\nname: lint\ndescription: Lint.\nallowed-tools: Read\n---\nRun it.\n" {
		t.Fatalf("codex:\n%s", got)
	}
}

// Claude's own subagent keys (color) come back; no other agent gets them.
func TestSubagentOtherKeysClaudeOnly(t *testing.T) {
	items := parsed(t, content.KindSubagent, "rev", "---\nname: rev\ndescription: Reviews.\ntools: Read\ncolor: blue\n---\nYou review.\n")
	if got := projected(t, "claude", items); !strings.Contains(got, "\ncolor: blue\n---\n") {
		t.Fatalf("claude:\n%s", got)
	}
	if got := projected(t, "copilot", items); strings.Contains(got, "color") {
		t.Fatalf("copilot:\n%s", got)
	}
}

// An agent-requested Cursor rule (alwaysApply: false, no globs) stays so
// for Cursor and is not counted as always loaded there.
func TestCursorRuleOnRequest(t *testing.T) {
	items := parsed(t, content.KindRule, "asked", "---\ndescription: Ask me\nalwaysApply: false\n---\nOnly when asked.\n")
	a, _ := (&core.System{}).AgentTable.Lookup("cursor")
	out := Project(a, items, Options{Level: content.LevelProject})
	if len(out.Files) != 1 || out.Files[0].Always || !strings.Contains(string(out.Files[0].Data), "alwaysApply: false\n") {
		t.Fatalf("got %+v", out.Files)
	}
}
