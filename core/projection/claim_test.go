package projection

import (
	"testing"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
)

// A record entry is acted on only where its projector writes it: the
// agent's place for the kind, the item's own name, nothing around it.
func TestClaims(t *testing.T) {
	project := Request{Root: "/p"}
	user := Request{Bases: map[string]string{"claude": "/h/.claude", "codex": "/h/.codex"}}
	for _, c := range []struct {
		req  Request
		e    Recorded
		want bool
	}{
		{project, Recorded{Path: ".claude/rules/a.md", Kind: "rule", Item: "a", Agent: "claude"}, true},
		{project, Recorded{Path: ".cursor/rules/a.mdc", Kind: "rule", Item: "a", Agent: "cursor"}, true},
		{project, Recorded{Path: ".github/instructions/a.instructions.md", Kind: "rule", Item: "a", Agent: "copilot"}, true},
		{project, Recorded{Path: ".agents/skills/s/run.sh", Kind: "skill", Item: "s", Agent: "codex"}, true},
		{project, Recorded{Path: ".claude/skills/s/deep/x.md", Kind: "skill", Item: "s", Agent: "claude"}, true},
		{project, Recorded{Path: ".gemini/commands/c.toml", Kind: "command", Item: "c", Agent: "gemini"}, true},
		{project, Recorded{Path: ".git/HEAD", Kind: "rule", Item: "a", Agent: "claude"}, false},
		{project, Recorded{Path: ".claude/rules/b.md", Kind: "rule", Item: "a", Agent: "claude"}, false},
		{project, Recorded{Path: ".claude/rules/a.md", Kind: "rule", Item: "a", Agent: "cursor"}, false},
		{project, Recorded{Path: ".claude/rules/a.md", Kind: "skill", Item: "a", Agent: "claude"}, false},
		{project, Recorded{Path: ".claude/skills/s/../../../.git/config", Kind: "skill", Item: "s", Agent: "claude"}, false},
		{project, Recorded{Path: ".claude/skills/s/", Kind: "skill", Item: "s", Agent: "claude"}, false},
		{project, Recorded{Path: ".claude/skills/s/./x", Kind: "skill", Item: "s", Agent: "claude"}, false},
		{project, Recorded{Path: ".claude/rules/../a.md", Kind: "rule", Item: "..", Agent: "claude"}, false},
		{project, Recorded{Path: ".claude/rules/A.md", Kind: "rule", Item: "A", Agent: "claude"}, false},
		{project, Recorded{Path: "CLAUDE.md", Kind: "rule", Item: "x", Agent: "nobody"}, false},
		{user, Recorded{Path: "/h/.claude/rules/a.md", Kind: "rule", Item: "a", Agent: "claude"}, true},
		{user, Recorded{Path: "/h/.bashrc", Kind: "rule", Item: "a", Agent: "claude"}, false},
		{user, Recorded{Path: "/h/.claude/rules/a.md", Kind: "rule", Item: "a", Agent: "codex"}, false},
		{user, Recorded{Path: "/h/.codex/skills/s/SKILL.md", Kind: "skill", Item: "s", Agent: "codex"}, true},
		{user, Recorded{Path: "/h/.ssh/authorized_keys", Kind: "skill", Item: "s", Agent: "gemini"}, false},
		// A retired place (Codex's prompts/) is claimed, to be pruned, at
		// its own level only and for its own file name only.
		{user, Recorded{Path: "/h/.codex/prompts/c.md", Kind: "command", Item: "c", Agent: "codex"}, true},
		{user, Recorded{Path: "/h/.codex/prompts/c.toml", Kind: "command", Item: "c", Agent: "codex"}, false},
		{user, Recorded{Path: "/h/.codex/prompts/c.md", Kind: "command", Item: "d", Agent: "codex"}, false},
		{user, Recorded{Path: "/h/.codex/prompts/c.md", Kind: "skill", Item: "c", Agent: "codex"}, false},
		{project, Recorded{Path: "prompts/c.md", Kind: "command", Item: "c", Agent: "codex"}, false},
		// Copilot's commands are Claude's files now; its prompt files are
		// a retired place.
		{project, Recorded{Path: ".claude/commands/c.md", Kind: "command", Item: "c", Agent: "copilot"}, true},
		{project, Recorded{Path: ".github/prompts/c.prompt.md", Kind: "command", Item: "c", Agent: "copilot"}, true},
		{project, Recorded{Path: ".github/prompts/c.md", Kind: "command", Item: "c", Agent: "copilot"}, false},
		{project, Recorded{Path: ".github/prompts/c.prompt.md", Kind: "command", Item: "c", Agent: "claude"}, false},
	} {
		if got := c.req.claims(c.e); got != c.want {
			t.Errorf("%+v at root %q: claims %v, want %v", c.e, c.req.Root, got, c.want)
		}
	}
}

// Every file a projector makes is one its claim accepts: the two read the
// same table.
func TestEveryProjectedFileIsClaimed(t *testing.T) {
	items := []content.Item{
		{Kind: content.KindRule, Name: "r", Body: []byte("R.\n"), Globs: []string{"*.go"}},
		{Kind: content.KindSkill, Name: "s", Description: "d", Body: []byte("S.\n"), Files: []content.File{{Rel: "a/b.md", Data: []byte("x")}}},
		{Kind: content.KindCommand, Name: "c", Body: []byte("C.\n")},
		{Kind: content.KindSubagent, Name: "g", Description: "d", Body: []byte("G.\n")},
	}
	for _, a := range agents.Default() {
		for _, level := range []string{content.LevelUser, content.LevelProject} {
			for _, f := range Project(a, items, Options{Level: level}).Files {
				e := Recorded{Path: f.Rel, Kind: string(f.Kind), Item: f.Item, Agent: a.Name}
				if !produces(a, level, e, f.Rel) {
					t.Errorf("%s %s: %s is projected but not claimed", a.Name, level, f.Rel)
				}
			}
		}
	}
}
