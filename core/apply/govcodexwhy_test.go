package apply

import (
	"strings"
	"testing"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/settings"
)

// Each Codex rule charter cannot write says why for its own kind: a web
// rule names the on/off network switch, a write rule the allow-only list.
func TestCodexWhyPerKind(t *testing.T) {
	a := agents.Agent{Display: "Codex"}
	cases := map[string]string{
		settings.RuleWeb:   "not per domain",
		settings.RuleRead:  "no per-path read setting",
		settings.RuleWrite: "writable_roots",
		settings.RuleMCP:   "MCP tool",
	}
	for kind, want := range cases {
		got := UnsupportedWhy(a, "codex", settings.Rule{Kind: kind})
		if !strings.HasPrefix(got, "Codex") || !strings.Contains(got, want) {
			t.Errorf("%s rule: %q, want it to say %q", kind, got, want)
		}
	}
}
