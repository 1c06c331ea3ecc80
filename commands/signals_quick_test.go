package commands

import (
	"strings"
	"testing"
)

// sortsLines fails for each line of yes that is not true and each of no
// that is, saying what each means.
func sortsLines(t *testing.T, is func([]string) bool, yes, no []string, meansYes, meansNo string) {
	t.Helper()
	for _, want := range []bool{true, false} {
		lines, means := yes, meansYes
		if !want {
			lines, means = no, meansNo
		}
		for _, line := range lines {
			if is(strings.Fields(line)) != want {
				t.Errorf("charter %s: want it %s", line, means)
			}
		}
	}
}

// Only a command that writes nothing and starts nothing runs without the
// signal handler; a flag's value never counts as the command.
func TestReadOnlyQuick(t *testing.T) {
	quick := []string{
		"--version", "-v --json", "version", "help settings", "--json settings get rules.tier",
		"settings list", "--config-root /r settings path", "ping --json", "agents", "man",
		"completion bash", "__complete settings", "detect --json",
		"--help", "-h --json", "",
	}
	planned := []string{
		"apply", "settings set rules.tier full", "settings edit", "ping --server",
		"--config-root settings apply", "--project-dir ping apply", "serve", "mcp", "gate hook claude-stop",
		"settings", "dismiss agent-switch", "-- version", "import --from claude",
	}
	sortsLines(t, readOnlyQuick, quick, planned, "run without the signal handler", "run under the signal handler")
}

// Only a plain apply arms the handlers late (its memo's replay reads only);
// a flag's value never counts as the command.
func TestReplaysFirst(t *testing.T) {
	late := []string{"apply", "apply --project --project-dir . --agent claude", "--project-dir apply apply", "--json apply --dry-run"}
	early := []string{"settings apply", "--config-root apply settings set rules.tier full", "import", "gate hook claude-stop", "", "-- apply"}
	sortsLines(t, replaysFirst, late, early, "to arm the handlers before the plan", "to arm the handlers at start")
}
