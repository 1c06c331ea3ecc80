package agents

// rulesAgents have a rules folder of their own: charter's block is an
// always-on rule file there, and their rules keep their scoping. Each also
// reads AGENTS.md, so where Codex's AGENTS.md carries the block the
// placement lets it serve them (apply's placement.go).
func rulesAgents() []Agent {
	return []Agent{
		{Name: "windsurf", Display: "Windsurf (Devin Desktop)", DefaultDir: ".codeium/windsurf",
			UserFile: "memories/global_rules.md", ProjectFile: ".windsurf/rules/charter.md", Format: FormatRules,
			Reads: []Read{{Path: ".windsurf/rules/", Scoped: true}, {Path: "AGENTS.md"}},
			// Servers: a remote one's address is serverUrl (windsurf).
			User: Places{RulesInBlock: true, Skills: Place{Dir: "skills/"}, Commands: Place{"global_workflows/", ".md", "md"},
				MCP: "mcp_config.json", MCPFormat: "windsurf", PermNone: windsurfPermNone},
			Project: Places{Rules: Place{".windsurf/rules/", ".md", "trigger"}, Skills: Place{Dir: ".windsurf/skills/"},
				Commands: Place{".windsurf/workflows/", ".md", "md"}, MCPNone: windsurfMCPNone, PermNone: windsurfPermNone},
			Scoping: "trigger: glob with globs: in .windsurf/rules/*.md (6,000 characters per rule, 12,000 in all)", Trust: "none documented",
			Verified: "documentation (not on npm)",
			Docs: []string{"https://docs.windsurf.com/windsurf/cascade/memories", "https://docs.windsurf.com/windsurf/cascade/workflows",
				"https://docs.windsurf.com/windsurf/cascade/mcp"}},
		// Cline CLI 3.0.65 loads every .clinerules/ file whole and drops
		// its frontmatter, paths: included: a rule names its globs in its
		// first line (plain), so the model still knows where it applies.
		{Name: "cline", Display: "Cline", DirVar: "CLINE_DIR", DefaultDir: ".cline", ProjectFile: ".clinerules/charter.md", Format: FormatRules,
			Reads: []Read{{Path: ".clinerules/"}, {Path: "AGENTS.md"}},
			// Servers: $CLINE_DIR/data/settings/cline_mcp_settings.json
			// (CLINE_DATA_DIR or CLINE_MCP_SETTINGS_PATH move it).
			User: Places{Skills: Place{Dir: "skills/"}, MCP: "data/settings/cline_mcp_settings.json", MCPFormat: "cline", PermNone: clinePermNone},
			Project: Places{Rules: Place{".clinerules/", ".md", "plain"}, Skills: Place{Dir: ".cline/skills/"},
				Commands: Place{".clinerules/workflows/", ".md", "md"}, PermNone: clinePermNone, MCPNone: clineMCPNone},
			Scoping: "none in the CLI (paths: in .clinerules/*.md is ignored; the IDE extension documents it)", Trust: "none documented", NPM: "cline", Verified: "real agent 3.0.65",
			Docs: []string{"https://docs.cline.bot/features/cline-rules/overview", "https://docs.cline.bot/features/slash-commands/workflows"}},
		{Name: "roo", Display: "Roo Code", DefaultDir: ".roo", UserFile: "rules/charter.md", ProjectFile: ".roo/rules/charter.md", Format: FormatRules, UserFormat: FormatRules,
			Reads: []Read{{Path: ".roo/rules/"}, {Path: "AGENTS.md"}},
			User: Places{Rules: Place{"rules/", ".md", "plain"}, Skills: Place{Dir: "skills/"}, Commands: Place{"commands/", ".md", "md"},
				MCPNone: rooMCPNone, PermNone: rooPermNone},
			Project: Places{Rules: Place{".roo/rules/", ".md", "plain"}, Skills: Place{Dir: ".roo/skills/"},
				Commands: Place{".roo/commands/", ".md", "md"}, MCP: ".roo/mcp.json", MCPFormat: "roo", PermNone: rooPermNone},
			Scoping: "none by path (rules-{mode}/ scopes by mode)", Trust: "none documented", Verified: "documentation (end of life 2026-05-15)",
			Docs: []string{"https://docs.roocode.com/features/custom-instructions", "https://docs.roocode.com/features/slash-commands",
				"https://docs.roocode.com/features/mcp/using-mcp-in-roo"}},
		{Name: "kilo", Display: "Kilo Code", DirVar: "KILO_CONFIG_DIR", DefaultDir: ".config/kilo", UserFile: "AGENTS.md",
			ProjectFile: ".kilo/rules/charter.md", Format: FormatRules,
			Reads: []Read{{Path: ".kilo/rules/"}, {Path: "AGENTS.md"}},
			// Kilo reads kilo.json (or kilo.jsonc, opencode.json) in its
			// config folder and at the project root: OpenCode's shapes.
			User: Places{RulesInBlock: true, Commands: Place{"commands/", ".md", "md"},
				Permissions: "kilo.json", PermFormat: "opencode", MCP: "kilo.json", MCPFormat: "opencode"},
			Project: Places{Rules: Place{".kilo/rules/", ".md", "plain"}, Skills: Place{Dir: ".kilo/skills/"},
				Commands: Place{".kilo/commands/", ".md", "md"}, Permissions: "kilo.json", PermFormat: "opencode", MCP: "kilo.json", MCPFormat: "opencode"},
			Scoping: "none (plain rules, always loaded)", Trust: "none documented", NPM: "@kilocode/cli", Verified: "real agent 7.7.7",
			Docs: []string{"https://kilo.ai/docs/customize/custom-rules", "https://kilo.ai/docs/automate/mcp/using-in-cli",
				"https://github.com/Kilo-Org/kilocode/blob/main/packages/opencode/src/session/instruction.ts"}},
		{Name: "augment", Display: "Augment Code (Auggie)", DefaultDir: ".augment", UserFile: "user-guidelines.md",
			ProjectFile: ".augment/rules/charter.md", Format: FormatRules,
			Reads: []Read{{Path: ".augment/rules/"}, {Path: "AGENTS.md"}, {Path: "CLAUDE.md"}},
			User: Places{RulesInBlock: true, Skills: Place{Dir: "skills/"}, Commands: Place{"commands/", ".md", "md"},
				MCP: "settings.json", MCPFormat: "mcpServers", Permissions: "settings.json", PermFormat: "augment"},
			Project: Places{Rules: Place{".augment/rules/", ".md", "augment"}, Skills: Place{Dir: ".augment/skills/"},
				Commands: Place{".augment/commands/", ".md", "md"}, MCPNone: augmentMCPNone, PermNone: augmentPermNone},
			Scoping: "none by path: type: always_apply | agent_requested | manual", Trust: "none documented",
			NPM: "@augmentcode/auggie", Verified: "documentation",
			Docs: []string{"https://docs.augmentcode.com/cli/rules", "https://docs.augmentcode.com/setup-augment/guidelines",
				"https://docs.augmentcode.com/cli/permissions"}},
		{Name: "kiro", Display: "Kiro", DefaultDir: ".kiro", UserFile: "steering/AGENTS.md", ProjectFile: ".kiro/steering/charter.md", Format: FormatRules,
			Reads: []Read{{Path: ".kiro/steering/", Scoped: true}, {Path: "AGENTS.md"}},
			User: Places{Rules: Place{"steering/", ".md", "kiro"}, Skills: Place{Dir: "skills/"}, Commands: Place{"prompts/", ".md", "plain"},
				MCP: "settings/mcp.json", MCPFormat: "plain", PermNone: kiroPermNone},
			Project: Places{Rules: Place{".kiro/steering/", ".md", "kiro"}, Skills: Place{Dir: ".kiro/skills/"},
				Commands: Place{".kiro/prompts/", ".md", "plain"}, MCP: ".kiro/settings/mcp.json", MCPFormat: "plain", PermNone: kiroPermNone},
			Scoping: "inclusion: fileMatch with fileMatchPattern: in .kiro/steering/*.md", Trust: "none documented",
			Verified: "documentation (not on npm)", Docs: []string{"https://kiro.dev/docs/steering/", "https://kiro.dev/docs/cli/steering",
				"https://kiro.dev/docs/mcp/configuration", "https://kiro.dev/docs/cli/chat/configuration"}},
		// Continue's CLI (cn 1.5.47) loads a rules file only when it says
		// alwaysApply: true or names no globs: a globs: rule never reaches
		// the model, so charter writes them plain, the globs in the first line.
		{Name: "continue", Display: "Continue", DirVar: "CONTINUE_GLOBAL_DIR", DefaultDir: ".continue",
			ProjectFile: ".continue/rules/charter.md", Format: FormatRules,
			Reads: []Read{{Path: ".continue/rules/"}, {Path: "AGENTS.md"}},
			// cn reads tool permissions from ~/.continue/permissions.yaml and
			// servers from its config file (~/.continue/config.yaml).
			User: Places{Rules: Place{"rules/", ".md", "plain"}, Skills: Place{Dir: "skills/"},
				Permissions: "permissions.yaml", PermFormat: "continue", MCP: "config.yaml", MCPFormat: "continue"},
			Project: Places{Rules: Place{".continue/rules/", ".md", "plain"}, Skills: Place{Dir: ".continue/skills/"},
				Commands: Place{".continue/prompts/", ".md", "md"}, PermNone: continueProjectNone, MCPNone: continueProjectNone},
			Scoping: "none in the CLI (it drops a globs: rule; the IDE extension documents globs: with alwaysApply: false)", Trust: "none documented",
			NPM: "@continuedev/cli", Verified: "real agent 1.5.47",
			Docs: []string{"https://docs.continue.dev/customize/deep-dives/rules", "https://docs.continue.dev/customize/deep-dives/prompts"}},
		{Name: "qwen", Display: "Qwen Code", DefaultDir: ".qwen", UserFile: "QWEN.md", ProjectFile: "QWEN.md", Format: FormatBlock,
			Reads: []Read{{Path: "QWEN.md", Imports: true}, {Path: ".qwen/rules/", Scoped: true}, {Path: "AGENTS.md"}},
			// Qwen Code 0.24 keeps Claude-style permissions.{allow,ask,deny}
			// and Gemini's mcpServers in settings.json.
			User: Places{Rules: Place{"rules/", ".md", "paths"}, Skills: Place{Dir: "skills/"}, Commands: Place{"commands/", ".md", "md"},
				Permissions: "settings.json", PermFormat: "qwen", MCP: "settings.json", MCPFormat: "gemini"},
			Project: Places{Rules: Place{".qwen/rules/", ".md", "paths"}, Skills: Place{Dir: ".qwen/skills/"},
				Commands: Place{".qwen/commands/", ".md", "md"}, Permissions: ".qwen/settings.json", PermFormat: "qwen", MCP: ".qwen/settings.json", MCPFormat: "gemini"},
			Scoping: "paths: list in .qwen/rules/*.md", Trust: "folder trust", NPM: "@qwen-code/qwen-code", Verified: "real agent 0.24.4",
			Docs: []string{"https://github.com/QwenLM/qwen-code/blob/main/docs/users/features/rules.md",
				"https://github.com/QwenLM/qwen-code/blob/main/docs/users/features/memory.md",
				"https://github.com/QwenLM/qwen-code/blob/main/docs/users/configuration/settings.md"}},
		// Junie reads .junie/AGENTS.md in place of the root AGENTS.md.
		{Name: "junie", Display: "Junie (JetBrains)", DefaultDir: ".junie", ProjectFile: ".junie/AGENTS.md", Format: FormatBlock,
			Reads: []Read{{Path: ".junie/AGENTS.md"}},
			User: Places{Skills: Place{Dir: "skills/"}, Commands: Place{"commands/", ".md", "md"},
				MCP: "mcp/mcp.json", MCPFormat: "junie", PermNone: juniePermNone},
			Project: Places{RulesInBlock: true, Skills: Place{Dir: ".junie/skills/"}, Commands: Place{".junie/commands/", ".md", "md"},
				MCP: ".junie/mcp/mcp.json", MCPFormat: "junie", PermNone: juniePermNone},
			Scoping: "none: rules are written out in the block", Trust: "none documented", Verified: "documentation (not on npm)",
			Docs: []string{"https://www.jetbrains.com/help/junie/customize-guidelines.html",
				"https://www.jetbrains.com/help/junie/model-context-protocol-mcp.html"}},
	}
}

// Why Cline and Continue have no place (read from Cline CLI 3.0.65 and cn 1.5.47).
const (
	clinePermNone = "Cline CLI reads no command permissions from a file: tool approval is one switch (--auto-approve, on by default in a headless run)"
	clineMCPNone  = "Cline CLI reads MCP servers from its own settings file only (~/.cline/data/settings/cline_mcp_settings.json), not from the project: apply at user level"
	// cn reads ~/.continue only; .continue/mcpServers/ is the IDE extension's.
	continueProjectNone = "Continue's CLI (cn) reads tool permissions and MCP servers from ~/.continue only (permissions.yaml, config.yaml), not from the project: apply at user level"
)
