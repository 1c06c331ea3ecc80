package apply

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// Claude Code reads settings.json as plain JSON: a comment there is
// refused, the file named, nothing written.
func TestStrictJSONRefusesComments(t *testing.T) {
	sys, snap, proj, base := govSetup(t, LevelProject)
	file := filepath.Join(base, ".claude", "settings.json")
	data := "{\n  // mine\n  \"model\": \"opus\"\n}\n"
	coretest.WriteFile(t, file, data)
	full, err := PlanAll(context.Background(), sys, snap, Request{Agents: []string{"claude"}, Project: proj})
	if err == nil {
		_, err = RunAll(context.Background(), sys, full, false)
	}
	if err == nil || !strings.Contains(err.Error(), filepath.Join(".claude", "settings.json")) ||
		!strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "a comment, which the agent does not allow in this file") {
		t.Errorf("apply: %v, want a refusal naming .claude/settings.json, line 2, and the comment", err)
	}
	if got, _ := os.ReadFile(file); string(got) != data {
		t.Errorf("settings.json changed:\n%s", got)
	}
}
