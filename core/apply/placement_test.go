package apply

import (
	"strings"
	"testing"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
)

func pickAgents(t *testing.T, names ...string) []agents.Agent {
	t.Helper()
	var out []agents.Agent
	for _, a := range agents.Default() {
		for _, n := range names {
			if a.Name == n {
				out = append(out, a)
			}
		}
	}
	return out
}

// where names each agent's placement: its file, "+rules" when the rules
// are written out in the block, "<-via" for an import, "served".
func where(got map[string]placement) string {
	var b []string
	for _, a := range agents.Default() {
		p, ok := got[a.Name]
		if !ok {
			continue
		}
		s := a.Name + "="
		switch {
		case p.served():
			s += "served"
		default:
			s += p.file
			if p.via != "" {
				s += "<-" + p.via
			}
			if p.inline {
				s += "+rules"
			}
		}
		b = append(b, s)
	}
	return strings.Join(b, " ")
}

// TestPlaceEachItemOnce: for each set of agents, the placement the plan
// takes, and that no agent is short of or over its block or a rule.
func TestPlaceEachItemOnce(t *testing.T) {
	items := []content.Item{
		{Kind: content.KindRule, Name: "always"},
		{Kind: content.KindRule, Name: "go", Globs: []string{"**/*.go"}},
		{Kind: content.KindSkill, Name: "sk"},
	}
	link := func(p string) string {
		if p == "CLAUDE.md" {
			return "AGENTS.md"
		}
		return p
	}
	for _, tc := range []struct {
		agents []string
		same   func(string) string
		want   string
	}{
		{[]string{"claude", "codex"}, nil, "claude=CLAUDE.md codex=AGENTS.md+rules"},
		{[]string{"claude", "codex", "gemini", "cursor", "copilot"}, nil,
			"claude=.claude/CLAUDE.md+rules codex=AGENTS.md+rules gemini=GEMINI.md<-.gemini/charter.md+rules cursor=served copilot=served"},
		{[]string{"claude", "codex"}, link, "claude=served codex=AGENTS.md+rules"},
		{[]string{"copilot"}, nil, "copilot=.github/copilot-instructions.md"},
		{[]string{"claude", "copilot"}, nil, "claude=CLAUDE.md copilot=served"},
		{[]string{"codex", "copilot"}, nil, "codex=AGENTS.md+rules copilot=served"},
		{[]string{"gemini", "copilot"}, nil, "gemini=GEMINI.md<-.gemini/charter.md+rules copilot=.github/copilot-instructions.md"},
		{[]string{"claude", "codex", "gemini"}, nil, "claude=CLAUDE.md codex=AGENTS.md+rules gemini=GEMINI.md+rules"},
	} {
		sel := pickAgents(t, tc.agents...)
		got := place(sel, items, tc.same, nil)
		if w := where(got); w != tc.want {
			t.Errorf("%v: placed %s\nwant %s", tc.agents, w, tc.want)
		}
		same := tc.same
		if same == nil {
			same = func(p string) string { return p }
		}
		pick := make([]placement, len(sel))
		for i, a := range sel {
			pick[i] = got[a.Name]
		}
		if s := score(sel, pick, groupRules(sel, items), same); s[0] != 0 {
			t.Errorf("%v: %d items missing or doubled", tc.agents, s[0])
		}
	}
}

// TestPlaceRuleForOneAgent: a rule meant for Codex alone reaches Copilot
// too when AGENTS.md serves it: the shared file serves everyone who reads
// it, and the placement still gives no agent a rule twice.
func TestPlaceRuleForOneAgent(t *testing.T) {
	items := []content.Item{{Kind: content.KindRule, Name: "only-codex", Agents: []string{"codex"}}}
	sel := pickAgents(t, "codex", "copilot")
	got := place(sel, items, nil, nil)
	if w := where(got); w != "codex=AGENTS.md+rules copilot=served" {
		t.Fatalf("placed %s", w)
	}
}
