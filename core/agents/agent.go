// Package agents is the agent table as data: every fact charter holds
// about each coding agent (SPEC §17), its lookups, and the page
// (docs/agents.md) generated from it. It knows nothing of a run's
// environment: the paths an agent uses in one are core/profile's.
package agents

import (
	"strings"

	"github.com/agentkit/charter/core/fsys"
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

// Agent is a coding agent charter knows: every fact charter holds about it
// (SPEC §17), in one table (table*.go). Profile resolution, apply's
// projectors and placement, import, doctor, MCP, the hub and `charter
// agents` read it; adding an agent is one entry (plus, for a new file
// format, its renderer in projection).
type Agent struct {
	Name    string // as in --agent
	Display string // as people call it
	// Provider is the companion provider whose profiles run this agent,
	// "" when the companion has none: inside such a profile, apply picks
	// this agent by default.
	Provider string
	// DirVar points at the agent's user-level directory ("" when the agent
	// has none); it is also a profile variable (SPEC §2).
	DirVar string
	// DirSub is the folder below DirVar's value that the agent reads
	// (Goose keeps config/, data/ and state/ below GOOSE_PATH_ROOT); with
	// DirSub set a relative value is ignored, as Goose ignores it.
	DirSub string
	// XDGDir, when set, is the agent's folder below $XDG_CONFIG_HOME,
	// which it follows when DirVar does not apply (Goose, through etcetera's
	// XDG strategy); a relative XDG_CONFIG_HOME is ignored, as the XDG spec
	// says.
	XDGDir string
	// WindowsDir, when set, replaces XDG and DefaultDir on Windows: the
	// folder below the home (Goose: etcetera's Windows strategy, the home's
	// AppData/Roaming/Block/goose/config; it reads no %APPDATA%).
	WindowsDir string
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
	// Format is how charter writes the project file; at user level the
	// file is the person's, a block in it, unless UserFormat says
	// otherwise (Roo's rules/charter.md, charter's whole).
	Format, UserFormat Format
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
	// User and Project are where the agent keeps each kind at each level.
	User, Project Places
	// Retired are places the agent read once and reads no more: nothing
	// is written there, but a file charter recorded there is pruned, and
	// import still reads it.
	Retired []Retired
	// ImportAlso are places the agent reads that charter does not write
	// (Copilot's .github/skills/): import reads them too.
	ImportAlso []Retired
	// Limit is the documented cap in bytes on the instructions the agent
	// always loads (Codex: 32 KiB of AGENTS.md), 0 for none.
	Limit int
	// Tools maps a source's tool names (Claude Code's, lower case) to the
	// agent's own, for an agent with a table of them; OwnTools are its own
	// names, which pass as they are.
	Tools    map[string]string
	OwnTools []string
	// Scoping says how the agent loads a rule only for some files.
	Scoping string
	// Trust says how the agent gates a project's configuration.
	Trust string
	// Hooks names the Stop hook protocol charter installs for it ("" for
	// none).
	Hooks string
	// NPM is the package of its command-line agent, "" when it has none on
	// npm; Verified says how the entry was checked: by the real agent at
	// a version, or from its documentation.
	NPM, Verified string
	// Docs are the pages the entry's facts come from.
	Docs []string
}

// Places are where an agent keeps each kind at one level, each a folder
// below the level's base (the agent's directory, or the project root).
type Places struct {
	Rules, Skills, Commands, Subagents Place
	// RulesInBlock: the agent has no rules folder at this level; its rules
	// are written out in charter's block of its instruction file.
	RulesInBlock bool
	// Permissions is the JSON file (below the level's base) that holds the
	// agent's permission rules, PermFormat how charter writes them there
	// ("claude": permissions.{deny,ask,allow}; "gemini": tools.exclude and
	// tools.allowed; "cursor": cli.json's permissions.{allow,deny};
	// "codex": an execpolicy rules file; "qwen": Claude-style
	// permissions.{deny,ask,allow}; "opencode": permission objects of
	// pattern → verdict, OpenCode's and Kilo's); "" where charter has no place
	// for them (SPEC §14).
	Permissions, PermFormat string
	// PermPolicy is a policy-engine file charter owns whole (Gemini CLI's
	// policies/charter.toml): its shell denies and asks, which hold even
	// against a grant; "" for none.
	PermPolicy string
	// PermNone says why the agent has no permission place ("" : charter
	// has none yet).
	PermNone string
	// MCP is the file that holds the agent's MCP servers, MCPFormat its
	// shape ("mcpServers", "gemini", "cursor", "vscode", "copilot": the
	// Copilot CLI's mcp-config.json, "codextoml": config.toml's
	// [mcp_servers], "opencode": OpenCode's and Kilo's mcp object; the
	// documented-only agents' shapes: apply's govdocs.go); "" for none.
	MCP, MCPFormat string
	// MCPNone says why the agent has no MCP file at this level ("":
	// charter has none yet).
	MCPNone string
}

// JSONC says whether the agent reads its permission or server file of
// format as JSON with comments and trailing commas (VS Code's mcp.json,
// Zed's settings.json, OpenCode's and Kilo's config; Gemini CLI's and Qwen
// Code's settings.json, which both pass through strip-json-comments before
// JSON.parse); every other format is strict JSON, where a comment is an
// error.
func JSONC(format string) bool {
	switch format {
	case "opencode", "vscode", "zed", "gemini", "qwen":
		return true
	}
	return false
}

// Place is one folder of an agent's files of one kind; the zero Place is
// none.
type Place struct {
	Dir    string // slash-separated, ending in "/"
	Ext    string // after the item's name ("" for a skill's folder)
	Format string // how projection writes a file there (its renderer)
}

// Retired is a place of one kind at one level: one an agent no longer
// reads, or one only import reads (Format: how import reads a file there).
type Retired struct {
	Level, Kind, Dir, Ext, Format string
}

// FormatAt is how charter writes the agent's instruction file at level.
func (a Agent) FormatAt(level string) Format {
	switch {
	case level == "project":
		return a.Format
	case a.UserFormat != "":
		return a.UserFormat
	}
	return FormatBlock
}

// Of is the place of kind k ("rule", "skill", "command", "subagent").
func (p Places) Of(k string) Place {
	switch k {
	case "rule":
		return p.Rules
	case "skill":
		return p.Skills
	case "command":
		return p.Commands
	case "subagent":
		return p.Subagents
	}
	return Place{}
}

// At is the agent's places at level ("user" or "project").
func (a Agent) At(level string) Places {
	if level == "project" {
		return a.Project
	}
	return a.User
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

// ProjectPath is the agent's instruction file in the project at dir, ""
// when it reads none.
func (a Agent) ProjectPath(ps fsys.PathStyle, dir string) string {
	if a.ProjectFile == "" {
		return ""
	}
	return ps.Join(append([]string{dir}, strings.Split(a.ProjectFile, "/")...)...)
}
