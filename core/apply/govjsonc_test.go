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

// Gemini CLI reads settings.json through strip-json-comments, so a user's
// comments there are edited around, kept byte for byte, and uninstall
// gives the file back as it was, at both levels.
func TestGeminiSettingsKeepComments(t *testing.T) {
	for _, level := range []string{LevelUser, LevelProject} {
		t.Run(level, func(t *testing.T) {
			sys, snap, proj, base := govSetup(t, level)
			file := filepath.Join(base, ".gemini", "settings.json")
			data := "// my Gemini\n{\n  \"theme\": \"dark\", // the one I like\n  /* tools */\n  \"tools\": {\"exclude\": [\"web_fetch\"]}\n}\n"
			coretest.WriteFile(t, file, data)
			req := Request{Agents: []string{"gemini"}, Project: proj}
			full, err := PlanAll(context.Background(), sys, snap, req)
			if err != nil {
				t.Fatal(err)
			}
			govRunFull(t, sys, full)
			got, _ := os.ReadFile(file)
			for _, want := range []string{"// my Gemini\n{\n  \"theme\": \"dark\", // the one I like\n  /* tools */\n",
				`"exclude": ["web_fetch", "run_shell_command(git push --force)"]`, `"notes": {`} {
				if !strings.Contains(string(got), want) {
					t.Errorf("settings.json is\n%s\nwant it to hold %q", got, want)
				}
			}
			govRound(t, sys, snap, proj, base, level, req, full, nil, map[string]string{".gemini/settings.json": data})
		})
	}
}
