package commands

import (
	"strings"
	"testing"
)

// complete runs `charter __complete -- words...` in-process and returns
// its lines.
func complete(t *testing.T, words ...string) []string {
	t.Helper()
	r := runCharter(t, t.TempDir(), "", false, append([]string{"__complete", "--"}, words...)...)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("__complete %q: exit %d: %s", words, r.code, r.stderr)
	}
	var values []string
	for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		if line != "" {
			value, _, _ := strings.Cut(line, "\t")
			values = append(values, value)
		}
	}
	return values
}

// Completion follows the grammar: commands, subcommands, flags, setting
// keys after settings get|set|unset|list and a key's allowed values after
// settings set KEY.
func TestComplete(t *testing.T) {
	for _, c := range []struct {
		words []string
		want  string // the values, space-separated
	}{
		{[]string{""}, "detect dismiss ping settings serve apply mcp doctor gate trust agents profiles rules skills commands subagents sources import uninstall permissions mcp-servers completion help man version"},
		{[]string{"se"}, "settings serve"},
		{[]string{"settings", ""}, "list get set unset path edit schema"},
		{[]string{"settings", "s"}, "set schema"},
		{[]string{"settings", "get", "rules."}, "rules.disabled rules.tier"},
		{[]string{"settings", "unset", "gates.o"}, "gates.on_failure"},
		{[]string{"settings", "set", "cost.e"}, "cost.enforcement"},
		{[]string{"settings", "set", "rules.tier", ""}, "minimal balanced full"},
		{[]string{"settings", "set", "rules.tier", "f"}, "full"},
		{[]string{"settings", "set", "skills.autoload", ""}, "true false"},
		{[]string{"settings", "set", "gates.coverage.min", ""}, ""},
		{[]string{"settings", "set", "nope", ""}, ""},
		{[]string{"settings", "set", "rules.tier", "full", ""}, ""},
		{[]string{"--json", "settings", "set", "--confirm-shared", "worktrees.mode", "o"}, "off on"},
		{[]string{"settings", "set", "--", "agent.autonomy", ""}, "off auto on"},
		{[]string{"--config-root", "/x", "settings", "set", "memory.cadence", "a"}, "auto always"},
		{[]string{"settings", "list", "commands.s"}, "commands.suggestions commands.suggestions.confidence_floor commands.suggestions.enabled commands.suggestions.max_options"},
		{[]string{"settings", "list", "--"}, "--show-origin --config-root --json --version --project-dir --no-project"},
		{[]string{"settings", "list", "--show-origin", "--"}, "--config-root --json --version --project-dir --no-project"},
		{[]string{"--"}, "--config-root --json --version --project-dir --no-project"},
		{[]string{"apply", "--d"}, "--dry-run"},
		{[]string{"apply", "--agent", ""}, "claude codex gemini cursor copilot antigravity windsurf cline roo kilo augment kiro continue qwen junie opencode amp zed warp goose crush droid jules all"},
		{[]string{"apply", "--agent", "claude,"}, "claude,codex claude,gemini claude,cursor claude,copilot claude,antigravity claude,windsurf claude,cline claude,roo claude,kilo claude,augment claude,kiro claude,continue claude,qwen claude,junie claude,opencode claude,amp claude,zed claude,warp claude,goose claude,crush claude,droid claude,jules claude,all"},
		{[]string{"apply", "--agent=c"}, "--agent=claude --agent=codex --agent=cursor --agent=copilot --agent=cline --agent=continue --agent=crush"},
		{[]string{"ping", "--require", ""}, "configRoot policy projectLayer"},
		{[]string{"import", "--from", "r"}, "roo rulesync ruler"},
		{[]string{"dismiss", ""}, "agent-switch"},
		{[]string{"completion", ""}, "bash zsh fish powershell"},
		{[]string{"help", ""}, "detect dismiss ping settings serve apply mcp doctor gate trust agents profiles rules skills commands subagents sources import uninstall permissions mcp-servers completion help man version environment exit-codes files layers"},
		{[]string{"help", "ex"}, "exit-codes"},
		{[]string{"help", "settings", "u"}, "unset"},
		{[]string{"--config-root", ""}, ":dirs"},
		{[]string{"--config-root=/tm"}, ":dirs"},
		{[]string{"detect", ""}, ""},
		{[]string{"bogus", ""}, ""},
		{[]string{`""`}, "detect dismiss ping settings serve apply mcp doctor gate trust agents profiles rules skills commands subagents sources import uninstall permissions mcp-servers completion help man version"},
	} {
		if got := strings.Join(complete(t, c.words...), " "); got != c.want {
			t.Errorf("%q:\n got: %s\nwant: %s", c.words, got, c.want)
		}
	}
}

// Candidates carry a description after a tab; __complete is hidden.
func TestCompleteDescriptions(t *testing.T) {
	r := runCharter(t, t.TempDir(), "", false, "__complete", "--", "settings", "set", "rules.tier", "")
	if !strings.Contains(r.stdout, "full\tEvery rule is active, style and process rules included") {
		t.Errorf("stdout %q", r.stdout)
	}
	if r := runCharter(t, t.TempDir(), "", false, "--help"); strings.Contains(r.stdout, "__complete") {
		t.Errorf("the entry point shows in the help:\n%s", r.stdout)
	}
}

func TestCompletionScripts(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell", "Bash"} {
		r := runCharter(t, t.TempDir(), "", false, "completion", sh)
		if r.code != 0 || !strings.Contains(r.stdout, "charter __complete --") {
			t.Errorf("%s: exit %d: %.200s", sh, r.code, r.stdout+r.stderr)
		}
	}
	r := runCharter(t, t.TempDir(), "", false, "completion", "tcsh")
	if r.code != 2 || !strings.Contains(r.stderr, `no completion for the shell "tcsh": choose bash, zsh, fish or powershell`) {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
}
