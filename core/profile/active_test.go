package profile

import (
	"slices"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/spf13/afero"
)

// Profile resolution reads the System's agent table: an entry added there
// is a variable charter consults, in table order, before any other
// *_CONFIG_DIR.
func TestAgentTableDrivesProfileVars(t *testing.T) {
	s := testSystem(afero.NewMemMapFs(), "/work", "HOME=/home/u",
		"A_CONFIG_DIR=/home/u/.agent-switch/claude/first/config",
		"ZED_HOME=/home/u/.agent-switch/zed/work/config")
	s.AgentTable = append(agents.Default(), agents.Agent{Name: "zork", Provider: "zork", DirVar: "ZED_HOME", DefaultDir: ".zork", UserFile: "ZORK.md", Format: agents.FormatBlock})
	var want []string
	for _, a := range agents.Default() {
		if a.DirVar != "" {
			want = append(want, a.DirVar)
		}
	}
	want = append(want, "ZED_HOME", "A_CONFIG_DIR")
	if got := VarNames(s); !slices.Equal(got, want) {
		t.Errorf("profileVars = %v, want %v", got, want)
	}
	if p := Active(s); p.Name() != "zed/work" {
		t.Errorf("active profile %q, want zed/work (its variable comes first)", p.Name())
	}
	if a, ok := s.AgentTable.Lookup("zork"); !ok || a.UserFile != "ZORK.md" {
		t.Errorf("Lookup(zork) = %+v, %v", a, ok)
	}
	// Agents hands out a copy: no caller can change the table.
	s.AgentTable.All()[0].Name = "x"
	if s.AgentTable[0].Name != "claude" {
		t.Error("the table can be changed through Agents()")
	}
	// The default table has no such entry.
	if _, ok := testSystem(afero.NewMemMapFs(), "/work", "HOME=/home/u").AgentTable.Lookup("zork"); ok {
		t.Error("the test entry leaked into the default table")
	}
}

// HOME inside the companion tree as antigravity/<name>/config is the
// profile; charter's root and the companion home stay in the real home.
func TestAntigravityHomeProfile(t *testing.T) {
	fs := afero.NewMemMapFs()
	cases := []struct {
		name, profile, root, agentDir string
		env                           []string
	}{
		{"default companion", "antigravity/work", "/home/u/.agentkit/charter", "/home/u/.agent-switch/antigravity/work/config/.gemini",
			[]string{"HOME=/home/u/.agent-switch/antigravity/work/config"}},
		{"AGENT_SWITCH_HOME named .agent-switch", "antigravity/w2", "/srv/.agentkit/charter", "/srv/.agent-switch/antigravity/w2/config/.gemini",
			[]string{"HOME=/srv/.agent-switch/antigravity/w2/config", "AGENT_SWITCH_HOME=/srv/.agent-switch"}},
		{"other AGENT_SWITCH_HOME: user database", "antigravity/w3", "/db/home/.agentkit/charter", "/sw/antigravity/w3/config/.gemini",
			[]string{"HOME=/sw/antigravity/w3/config", "AGENT_SWITCH_HOME=/sw"}},
		{"invalid name skipped", "", "/home/u/.agent-switch/antigravity/b.d/config/.agentkit/charter", "/home/u/.agent-switch/antigravity/b.d/config/.gemini",
			[]string{"HOME=/home/u/.agent-switch/antigravity/b.d/config"}},
		{"other provider is not a HOME profile", "", "/home/u/.agent-switch/claude/x/config/.agentkit/charter", "/home/u/.agent-switch/claude/x/config/.gemini",
			[]string{"HOME=/home/u/.agent-switch/claude/x/config"}},
		{"deeper than config is not one", "", "/home/u/.agent-switch/antigravity/x/config/sub/.agentkit/charter", "/home/u/.agent-switch/antigravity/x/config/sub/.gemini",
			[]string{"HOME=/home/u/.agent-switch/antigravity/x/config/sub"}},
		{"CLAUDE_CONFIG_DIR wins", "claude/c", "/home/u/.agentkit/charter", "/home/u/.agent-switch/claude/c/config",
			[]string{"HOME=/home/u/.agent-switch/antigravity/work/config", "CLAUDE_CONFIG_DIR=/home/u/.agent-switch/claude/c/config"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testSystem(fs, "/work", c.env...)
			s.UserHome = func() (string, error) { return "/db/home", nil }
			if got := Active(s).Name(); got != c.profile {
				t.Errorf("profile %q, want %q", got, c.profile)
			}
			if root, err := DefaultRoot(s); err != nil || root != c.root {
				t.Errorf("DefaultRoot = %q, %v; want %q", root, err, c.root)
			}
			gemini, _ := s.AgentTable.Lookup("gemini")
			if dir, err := AgentDir(s, gemini); err != nil || dir != c.agentDir {
				t.Errorf("AgentDir(gemini) = %q, %v; want %q", dir, err, c.agentDir)
			}
		})
	}
}

// The agent table names the companion's HOME provider by its own word: the
// two must agree, or an antigravity profile would pick no agent.
func TestHomeProviderInTable(t *testing.T) {
	for _, a := range agents.Default() {
		if a.Provider == core.CompanionHomeProvider {
			return
		}
	}
	t.Errorf("no agent of the table has provider %q (CompanionHomeProvider)", core.CompanionHomeProvider)
}
