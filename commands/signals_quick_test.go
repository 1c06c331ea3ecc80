package commands

import (
	"strings"
	"testing"
)

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
	for _, line := range quick {
		if !readOnlyQuick(strings.Fields(line)) {
			t.Errorf("charter %s: want it run without the signal handler", line)
		}
	}
	for _, line := range planned {
		if readOnlyQuick(strings.Fields(line)) {
			t.Errorf("charter %s: want it run under the signal handler", line)
		}
	}
}

// Only a plain apply arms the handlers late (its memo's replay reads only);
// a flag's value never counts as the command.
func TestReplaysFirst(t *testing.T) {
	late := []string{"apply", "apply --project --project-dir . --agent claude", "--project-dir apply apply", "--json apply --dry-run"}
	early := []string{"settings apply", "--config-root apply settings set rules.tier full", "import", "gate hook claude-stop", "", "-- apply"}
	for _, line := range late {
		if !replaysFirst(strings.Fields(line)) {
			t.Errorf("charter %s: want the handlers armed before the plan", line)
		}
	}
	for _, line := range early {
		if replaysFirst(strings.Fields(line)) {
			t.Errorf("charter %s: want the handlers armed at start", line)
		}
	}
}
