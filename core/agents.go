package core

import (
	"fmt"
	"slices"
	"strings"
)

// Format is how charter writes an agent's instruction file.
type Format string

const (
	// FormatBlock is a Markdown file the user owns; charter owns one block
	// between its markers and keeps every other byte.
	FormatBlock Format = "block"
	// FormatRules is a rules file charter owns whole: frontmatter that tells
	// the agent to always load it, then the block.
	FormatRules Format = "rules"
)

// Agent is a coding agent charter knows: how profile resolution finds its
// directory and where apply writes its instructions. Adding an agent is one
// entry in DefaultAgents (plus, for a new Format, one renderer in apply).
type Agent struct {
	Name string // as in --agent
	// Provider is the companion provider whose profiles run this agent,
	// "" when the companion has none: inside such a profile, apply picks
	// this agent by default.
	Provider string
	// DirVar points at the agent's user-level directory ("" when the agent
	// has none); it is also a profile variable (SPEC §2).
	DirVar string
	// DefaultDir is the user-level directory below $HOME when DirVar is
	// unset.
	DefaultDir string
	// UserFile is the instruction file in the user-level directory, ""
	// when the agent reads none.
	UserFile string
	// ProjectFile is the instruction file in a project, relative to its
	// root, slash-separated; "" when the agent reads none.
	ProjectFile string
	// ProjectAlways makes `apply --project` write the project file by
	// default even before it exists (CLAUDE.md and AGENTS.md, the files most
	// agents read); other agents' project files only when already there.
	ProjectAlways bool
	Format        Format
	// Reads are the places the agent loads at project level, its own and
	// other agents' (SPEC §12: each agent sees each item once; apply's
	// placement reads them). Measured with the real agents where they are
	// on npm (docs/real-agents.md), else from their documentation.
	Reads []Read
	// Private is a project file only this agent reads: its block goes
	// there, every rule written out, when others read its usual file. Via,
	// when set, is the file that then holds the block, imported from
	// Private by one line (Copilot reads GEMINI.md, but not its imports).
	Private, Via string
}

// Read is a place an agent loads: a file, or a folder (ending in "/") of
// rule files.
type Read struct {
	Path string
	// Scoped: the agent loads a rule in this folder only for the files its
	// globs match.
	Scoped bool
	// Imports: the agent expands `@path` lines of this file.
	Imports bool
}

// DefaultAgents is the table of agents, in canonical order: the order apply
// lists them in, and the order their variables are consulted when charter
// looks for the active profile.
func DefaultAgents() []Agent {
	return []Agent{
		{Name: "claude", Provider: "claude", DirVar: "CLAUDE_CONFIG_DIR", DefaultDir: ".claude",
			UserFile: "CLAUDE.md", ProjectFile: "CLAUDE.md", ProjectAlways: true, Format: FormatBlock,
			Reads:   []Read{{Path: "CLAUDE.md", Imports: true}, {Path: ".claude/CLAUDE.md", Imports: true}, {Path: ".claude/rules/", Scoped: true}},
			Private: ".claude/CLAUDE.md"},
		{Name: "codex", Provider: "codex", DirVar: "CODEX_HOME", DefaultDir: ".codex",
			UserFile: "AGENTS.md", ProjectFile: "AGENTS.md", ProjectAlways: true, Format: FormatBlock,
			Reads: []Read{{Path: "AGENTS.md"}}},
		// Gemini CLI reads ~/.gemini/GEMINI.md and GEMINI.md at the project
		// root; antigravity (agy) profiles run it with HOME pointed at the
		// profile, so its user file is under the profile's home.
		{Name: "gemini", Provider: CompanionHomeProvider, DefaultDir: ".gemini",
			UserFile: "GEMINI.md", ProjectFile: "GEMINI.md", Format: FormatBlock,
			Reads: []Read{{Path: "GEMINI.md", Imports: true}}, Private: "GEMINI.md", Via: ".gemini/charter.md"},
		// Cursor loads project rules from .cursor/rules/*.mdc and AGENTS.md
		// at the root (cursor.com/docs/context/rules; SPEC §12); its user
		// rules live in the editor's settings, not in a file.
		{Name: "cursor", ProjectFile: ".cursor/rules/charter.mdc", Format: FormatRules,
			Reads: []Read{{Path: ".cursor/rules/", Scoped: true}, {Path: "AGENTS.md"}}},
		// GitHub Copilot reads repository-wide instructions from
		// .github/copilot-instructions.md; Copilot CLI reads personal ones
		// from copilot-instructions.md in its home, $COPILOT_HOME or
		// ~/.copilot (`copilot help environment`; docs.github.com …
		// copilot-cli-reference/cli-config-dir-reference).
		{Name: "copilot", DirVar: "COPILOT_HOME", DefaultDir: ".copilot",
			UserFile: "copilot-instructions.md", ProjectFile: ".github/copilot-instructions.md", Format: FormatBlock,
			// Measured (docs/real-agents.md): it also reads Claude's, Codex's
			// and Gemini's files, GEMINI.md's imports as text.
			Reads: []Read{{Path: ".github/copilot-instructions.md"}, {Path: ".github/instructions/", Scoped: true},
				{Path: "AGENTS.md"}, {Path: "CLAUDE.md", Imports: true}, {Path: "GEMINI.md"}, {Path: ".claude/rules/", Scoped: true}}},
	}
}

// Agents lists the agents this System knows, in canonical order.
func (s *System) Agents() []Agent {
	if s.AgentTable != nil {
		return slices.Clone(s.AgentTable)
	}
	return DefaultAgents()
}

// LookupAgent finds an agent by name.
func (s *System) LookupAgent(name string) (Agent, bool) {
	all := s.Agents()
	i := slices.IndexFunc(all, func(a Agent) bool { return a.Name == name })
	if i < 0 {
		return Agent{}, false
	}
	return all[i], true
}

// AgentNames lists the names of the agents this System knows.
func (s *System) AgentNames() []string {
	var out []string
	for _, a := range s.Agents() {
		out = append(out, a.Name)
	}
	return out
}

// AgentDir is the agent's user-level directory. Inside a profile selected
// by an agent's variable it is that profile's config directory, for every
// agent, so a profile's settings never land in another scope's file.
// Otherwise (no profile, or a profile entered through HOME, whose home is
// the agents' home) the agent's own variable, else its default below $HOME.
func (s *System) AgentDir(a Agent) (string, error) {
	if dir, ok := s.ProfileDir(); ok && !s.ProfileViaHome() {
		return dir, nil
	}
	if a.DirVar != "" {
		if v := s.Getenv(a.DirVar); strings.TrimSpace(v) != "" {
			dir, err := s.Normalize(v)
			if err != nil {
				return "", fmt.Errorf("%s: %w", a.DirVar, err)
			}
			return dir, nil
		}
	}
	home, err := s.Home()
	if err != nil {
		return "", err
	}
	return s.Paths.Join(home, a.DefaultDir), nil
}

// UserPath is the agent's user-level instruction file, "" when it has none.
func (s *System) UserPath(a Agent) (string, error) {
	if a.UserFile == "" {
		return "", nil
	}
	dir, err := s.AgentDir(a)
	if err != nil {
		return "", err
	}
	return s.Paths.Join(dir, a.UserFile), nil
}

// ProjectPath is the agent's instruction file in the project at dir, ""
// when it reads none.
func (s *System) ProjectPath(a Agent, dir string) string {
	if a.ProjectFile == "" {
		return ""
	}
	return s.Paths.Join(append([]string{dir}, strings.Split(a.ProjectFile, "/")...)...)
}
