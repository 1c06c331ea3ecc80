package agents

import (
	"slices"

	"github.com/agentkit/charter/core/lazy"
)

// Default is the agent table (SPEC §17), in canonical order: the
// order apply lists agents in and the order their variables are consulted
// when charter looks for the active profile. The agents whose CLI runs
// against a local model endpoint are checked with the real agent at the
// versions of scripts/agents.sh (Verified says which; docs/real-agents.md);
// the others follow their documentation (Docs). docs/agents.md is
// generated from this table.
func Default() []Agent { return slices.Clone(agentTable.Get()) }

// agentTable is built once per run: a command looks agents up many times
// (every profile variable, every agent directory), and the table is fixed.
// Callers get a copy of the slice; no caller changes an Agent's fields.
// One allocation of the whole table: growing it part by part moved every
// kilobyte-sized row twice into fresh pages at each start.
var agentTable = lazy.Value[[]Agent]{Make: func() []Agent {
	return slices.Concat(measuredAgents(), rulesAgents(), sharedAgents())
}}

// Formats of a rule file, by how the agent scopes it: "paths" (Claude,
// Qwen: a paths: list), "cursor" (.mdc: globs, alwaysApply),
// "copilot" (applyTo), "trigger" (Windsurf, Antigravity: trigger: glob,
// globs), "kiro" (inclusion: fileMatch, fileMatchPattern), "continue"
// (globs, alwaysApply), "augment" (type: always_apply), "plain" (no
// frontmatter: the agent cannot scope, as Cline's and Continue's CLIs
// showed; the first line names the globs).
// Commands: "md" (description, argument-hint), "toml" (Gemini), "plain".
// Subagents: "claude", "gemini", "codex", "copilot", "cursor".

func measuredAgents() []Agent {
	return []Agent{
		{Name: "claude", Display: "Claude Code", Provider: "claude", DirVar: "CLAUDE_CONFIG_DIR", DefaultDir: ".claude",
			UserFile: "CLAUDE.md", ProjectFile: "CLAUDE.md", ProjectAlways: true, Format: FormatBlock,
			Reads:   []Read{{Path: "CLAUDE.md", Imports: true}, {Path: ".claude/CLAUDE.md", Imports: true}, {Path: ".claude/rules/", Scoped: true}},
			Private: ".claude/CLAUDE.md",
			// Claude Code 2.1 scopes ~/.claude/rules by paths: too.
			// Its user-level servers live in .claude.json: inside
			// CLAUDE_CONFIG_DIR when set, else beside ~/.claude.
			User: Places{Rules: Place{"rules/", ".md", "paths"}, Skills: Place{Dir: "skills/"},
				Commands: Place{"commands/", ".md", "md"}, Subagents: Place{"agents/", ".md", "claude"},
				Permissions: "settings.json", PermFormat: "claude", MCP: ".claude.json", MCPFormat: "mcpServers"},
			Project: Places{Rules: Place{".claude/rules/", ".md", "paths"}, Skills: Place{Dir: ".claude/skills/"},
				Commands: Place{".claude/commands/", ".md", "md"}, Subagents: Place{".claude/agents/", ".md", "claude"},
				Permissions: ".claude/settings.json", PermFormat: "claude", MCP: ".mcp.json", MCPFormat: "mcpServers"},
			Scoping: "paths: list in .claude/rules/*.md (both levels)", Trust: "workspace trust dialog; project hooks and .mcp.json servers need approval",
			Hooks: "claude", NPM: "@anthropic-ai/claude-code", Verified: "real agent 2.1.328",
			Docs: []string{"https://docs.claude.com/en/docs/claude-code/memory", "https://docs.claude.com/en/docs/claude-code/slash-commands",
				"https://docs.claude.com/en/docs/claude-code/sub-agents", "https://docs.claude.com/en/docs/claude-code/skills"}},
		// Codex reads no $CODEX_HOME/prompts/ since 0.117: it has no place
		// for commands, and skills took their role.
		{Name: "codex", Display: "Codex CLI", Provider: "codex", DirVar: "CODEX_HOME", DefaultDir: ".codex",
			UserFile: "AGENTS.md", ProjectFile: "AGENTS.md", ProjectAlways: true, Format: FormatBlock,
			Reads: []Read{{Path: "AGENTS.md"}},
			// Shell rules as execpolicy prefix_rule lines in a rules file of
			// charter's own; servers as [mcp_servers.NAME] in config.toml
			// (the project's .codex/ only in a trusted project).
			User: Places{RulesInBlock: true, Skills: Place{Dir: "skills/"}, Subagents: Place{"agents/", ".toml", "codex"},
				Permissions: "rules/charter.rules", PermFormat: "codex", MCP: "config.toml", MCPFormat: "codextoml"},
			Project: Places{RulesInBlock: true, Skills: Place{Dir: ".agents/skills/"},
				Subagents:   Place{".codex/agents/", ".toml", "codex"},
				Permissions: ".codex/rules/charter.rules", PermFormat: "codex", MCP: ".codex/config.toml", MCPFormat: "codextoml"},
			Retired: []Retired{{Level: "user", Kind: "command", Dir: "prompts/", Ext: ".md", Format: "md"}},
			Limit:   32 << 10, Scoping: "none: rules are written out in AGENTS.md with the globs they are meant for",
			Trust: "project config and hooks only in a trusted project; a hook runs once reviewed (/hooks)",
			Hooks: "codex", NPM: "@openai/codex", Verified: "real agent 0.169.0",
			Docs: []string{"https://developers.openai.com/codex/guides/agents-md", "https://developers.openai.com/codex/skills",
				"https://developers.openai.com/codex/hooks"}},
		// Gemini CLI reads ~/.gemini/GEMINI.md and GEMINI.md at the root.
		{Name: "gemini", Display: "Gemini CLI", DefaultDir: ".gemini",
			UserFile: "GEMINI.md", ProjectFile: "GEMINI.md", Format: FormatBlock,
			Reads: []Read{{Path: "GEMINI.md", Imports: true}}, Private: "GEMINI.md", Via: ".gemini/charter.md",
			User: Places{RulesInBlock: true, Skills: Place{Dir: "skills/"}, Commands: Place{"commands/", ".toml", "toml"},
				Subagents:   Place{"agents/", ".md", "gemini"},
				Permissions: "settings.json", PermFormat: "gemini", MCP: "settings.json", MCPFormat: "gemini",
				PermPolicy: "policies/charter.toml"},
			Project: Places{RulesInBlock: true, Skills: Place{Dir: ".agents/skills/"}, Commands: Place{".gemini/commands/", ".toml", "toml"},
				Subagents:   Place{".gemini/agents/", ".md", "gemini"},
				Permissions: ".gemini/settings.json", PermFormat: "gemini", MCP: ".gemini/settings.json", MCPFormat: "gemini"},
			Tools: map[string]string{ // packages/core/src/tools/tool-names.ts (0.61)
				"read": "read_file", "write": "write_file", "edit": "replace", "multiedit": "replace",
				"glob": "glob", "grep": "grep_search", "ls": "list_directory", "bash": "run_shell_command",
				"webfetch": "web_fetch", "websearch": "google_web_search", "todowrite": "write_todos",
				"askuserquestion": "ask_user", "skill": "activate_skill"},
			OwnTools: []string{"read_file", "write_file", "replace", "glob", "grep_search", "list_directory",
				"run_shell_command", "web_fetch", "google_web_search", "write_todos", "read_many_files", "ask_user", "activate_skill", "*"},
			Scoping: "none: rules are written out in the block", Trust: "folder trust; an MCP server's tools reach a headless run only with trust: true",
			NPM: "@google/gemini-cli", Verified: "real agent 0.61.0",
			Docs: []string{"https://geminicli.com/docs/cli/gemini-md/", "https://geminicli.com/docs/cli/custom-commands/",
				"https://geminicli.com/docs/core/subagents/"}},
		// Cursor loads .cursor/rules/*.mdc and AGENTS.md (SPEC §12); its user
		// rules live in the editor's settings, not in a file.
		{Name: "cursor", Display: "Cursor", DefaultDir: ".cursor", ProjectFile: ".cursor/rules/charter.mdc", Format: FormatRules,
			Reads: []Read{{Path: ".cursor/rules/", Scoped: true}, {Path: "AGENTS.md"}},
			User:  Places{Permissions: "cli-config.json", PermFormat: "cursor", MCP: "mcp.json", MCPFormat: "cursor"},
			Project: Places{Rules: Place{".cursor/rules/", ".mdc", "cursor"}, Skills: Place{Dir: ".agents/skills/"},
				Commands: Place{".cursor/commands/", ".md", "plain"}, Subagents: Place{".cursor/agents/", ".md", "cursor"},
				Permissions: ".cursor/cli.json", PermFormat: "cursor", MCP: ".cursor/mcp.json", MCPFormat: "cursor"},
			ImportAlso: []Retired{{Level: "project", Kind: "skill", Dir: ".cursor/skills/"}},
			Scoping:    "globs with alwaysApply: false in .cursor/rules/*.mdc", Trust: "none documented for rules",
			Verified: "documentation (its CLI is not on npm)",
			Docs:     []string{"https://cursor.com/docs/context/rules", "https://cursor.com/docs/agent/chat/commands", "https://cursor.com/docs/context/skills"}},
		// Copilot CLI reads .claude/commands/*.md as skills and no
		// .github/prompts/ (github/copilot-cli#1004); in its home
		// ($COPILOT_HOME, ~/.copilot) instructions/, skills/ and agents/.
		{Name: "copilot", Display: "GitHub Copilot (CLI and VS Code)", DirVar: "COPILOT_HOME", DefaultDir: ".copilot",
			UserFile: "copilot-instructions.md", ProjectFile: ".github/copilot-instructions.md", Format: FormatBlock,
			Reads: []Read{{Path: ".github/copilot-instructions.md"}, {Path: ".github/instructions/", Scoped: true},
				{Path: "AGENTS.md"}, {Path: "CLAUDE.md", Imports: true}, {Path: "GEMINI.md"}, {Path: ".claude/rules/", Scoped: true}},
			User: Places{Rules: Place{"instructions/", ".instructions.md", "copilot"}, Skills: Place{Dir: "skills/"},
				Subagents: Place{"agents/", ".agent.md", "copilot"}, MCP: "mcp-config.json", MCPFormat: "copilot", PermNone: copilotPermNone},
			Project: Places{Rules: Place{".github/instructions/", ".instructions.md", "copilot"}, Skills: Place{Dir: ".agents/skills/"},
				Commands: Place{".claude/commands/", ".md", "md"}, Subagents: Place{".github/agents/", ".agent.md", "copilot"},
				MCP: ".vscode/mcp.json", MCPFormat: "vscode", PermNone: copilotPermNone},
			Retired:    []Retired{{Level: "project", Kind: "command", Dir: ".github/prompts/", Ext: ".prompt.md", Format: "copilot-prompt"}},
			ImportAlso: []Retired{{Level: "project", Kind: "skill", Dir: ".github/skills/"}},
			Tools: map[string]string{ // custom agents configuration: tool aliases
				"bash": "execute", "shell": "execute", "powershell": "execute", "read": "read", "notebookread": "read",
				"edit": "edit", "multiedit": "edit", "write": "edit", "notebookedit": "edit", "grep": "search", "glob": "search",
				"task": "agent", "custom-agent": "agent", "websearch": "web", "webfetch": "web", "todowrite": "todo"},
			OwnTools: []string{"execute", "read", "edit", "search", "agent", "web", "todo", "*"},
			Scoping:  "applyTo in .github/instructions/*.instructions.md; also honours paths: in .claude/rules/",
			Trust:    "folder trust prompt", NPM: "@github/copilot", Verified: "real agent 1.0.102",
			Docs: []string{"https://docs.github.com/en/copilot/how-tos/configure-custom-instructions",
				"https://docs.github.com/en/copilot/reference/cli-command-reference"}},
		// The companion's third provider, its HOME provider (a test holds it
		// to core.CompanionHomeProvider): Antigravity keeps ~/.gemini like
		// Gemini CLI (an antigravity profile is selected through HOME) and
		// reads its own .agents/ folder in a project (legacy .agent/).
		{Name: "antigravity", Display: "Google Antigravity", Provider: "antigravity", DefaultDir: ".gemini",
			UserFile: "GEMINI.md", ProjectFile: ".agents/rules/charter.md", Format: FormatRules,
			Reads: []Read{{Path: ".agents/rules/", Scoped: true}, {Path: "AGENTS.md"}, {Path: "GEMINI.md"}},
			// Servers as Windsurf's (serverUrl): ~/.gemini/config/mcp_config.json
			// since Antigravity 2.0 and the CLI, .agents/mcp_config.json in a project.
			User: Places{RulesInBlock: true, MCP: "config/mcp_config.json", MCPFormat: "windsurf", PermNone: antigravityPermNone},
			Project: Places{Rules: Place{".agents/rules/", ".md", "trigger"}, Skills: Place{Dir: ".agents/skills/"},
				Commands: Place{".agents/workflows/", ".md", "md"}, MCP: ".agents/mcp_config.json", MCPFormat: "windsurf", PermNone: antigravityPermNone},
			Scoping: "trigger: glob with globs: in .agents/rules/*.md (12,000 characters per file)", Trust: "workspace trust",
			Verified: "documentation (not on npm)",
			Docs: []string{"https://antigravity.google/docs/rules-workflows", "https://antigravity.google/docs/skills",
				"https://antigravity.google/docs/cli/gcli-migration"}},
	}
}

// copilotPermNone: the Copilot CLI reads tool permissions from its command
// line (--allow-tool, --deny-tool) and its prompt only; no file holds them.
const copilotPermNone = "GitHub Copilot CLI takes tool permissions only as --allow-tool/--deny-tool flags or at its prompt; no configuration file holds them"
