package core

import (
	"slices"
	"testing"

	"github.com/spf13/afero"
)

// Profile resolution reads the one agent table: an entry added there is a
// variable charter consults, in table order, before any other *_CONFIG_DIR.
func TestAgentTableDrivesProfileVars(t *testing.T) {
	saved := agents
	t.Cleanup(func() { agents = saved })
	agents = append(slices.Clone(saved), Agent{Name: "gemini", File: "GEMINI.md", DirVar: "GEMINI_HOME", DefaultDir: ".gemini"})

	s := testSystem(afero.NewMemMapFs(), "/work", "HOME=/home/u",
		"A_CONFIG_DIR=/home/u/.agent-switch/claude/first/config",
		"GEMINI_HOME=/home/u/.agent-switch/gemini/work/config")
	if got, want := s.profileVars(), []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_HOME", "A_CONFIG_DIR"}; !slices.Equal(got, want) {
		t.Errorf("profileVars = %v, want %v", got, want)
	}
	if p := s.ActiveProfile(); p.Name() != "gemini/work" {
		t.Errorf("active profile %q, want gemini/work (its variable comes first)", p.Name())
	}
	if a, ok := LookupAgent("gemini"); !ok || a.File != "GEMINI.md" {
		t.Errorf("LookupAgent(gemini) = %+v, %v", a, ok)
	}
	// Agents hands out a copy: no caller can change the table.
	Agents()[0].Name = "x"
	if agents[0].Name != "claude" {
		t.Error("the table can be changed through Agents()")
	}
}
