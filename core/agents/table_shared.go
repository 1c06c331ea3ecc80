package agents

// sharedAgents read the shared AGENTS.md (or one file of their own) and
// keep no rules folder charter writes: the block with every rule written
// out serves them. Where AGENTS.md is also Codex's file, one block serves
// all of them (apply's placement).
func sharedAgents() []Agent {
	agentsMD := []Read{{Path: "AGENTS.md"}}
	shared := Places{RulesInBlock: true, Skills: Place{Dir: ".agents/skills/"}}
	return []Agent{
		{Name: "opencode", Display: "OpenCode", DirVar: "OPENCODE_CONFIG_DIR", DefaultDir: ".config/opencode", UserFile: "AGENTS.md",
			ProjectFile: "AGENTS.md", Format: FormatBlock, Reads: agentsMD,
			// permission and mcp in opencode.json (its config folder, the
			// project root); opencode.jsonc beside it is read too.
			User: Places{RulesInBlock: true, Skills: Place{Dir: "skills/"}, Commands: Place{"commands/", ".md", "md"},
				Permissions: "opencode.json", PermFormat: "opencode", MCP: "opencode.json", MCPFormat: "opencode"},
			Project: Places{RulesInBlock: true, Skills: Place{Dir: ".opencode/skills/"}, Commands: Place{".opencode/commands/", ".md", "md"},
				Permissions: "opencode.json", PermFormat: "opencode", MCP: "opencode.json", MCPFormat: "opencode"},
			Scoping: "none (CLAUDE.md only when there is no AGENTS.md)", Trust: "none documented", NPM: "opencode-ai", Verified: "real agent 1.18.33",
			Docs: []string{"https://opencode.ai/docs/rules/", "https://opencode.ai/docs/commands/", "https://opencode.ai/docs/skills/",
				"https://opencode.ai/docs/permissions/", "https://opencode.ai/docs/mcp-servers/"}},
		// Amp's settings.json keys are flat: "amp.mcpServers" is one key.
		{Name: "amp", Display: "Amp", DefaultDir: ".config/amp", UserFile: "AGENTS.md", ProjectFile: "AGENTS.md", Format: FormatBlock,
			Reads: agentsMD, User: Places{RulesInBlock: true, MCP: "settings.json", MCPFormat: "amp", Permissions: "settings.json", PermFormat: "amp"},
			Project: with(shared, Places{MCP: ".amp/settings.json", MCPFormat: "amp", Permissions: ".amp/settings.json", PermFormat: "amp"}),
			Scoping: "none (globs: only in files AGENTS.md @-mentions)", Trust: "none documented", NPM: "@ampcode/cli", Verified: "documentation",
			Docs: []string{"https://ampcode.com/manual#AGENTS.md", "https://ampcode.com/manual#agent-skills", "https://ampcode.com/manual#mcp", "https://ampcode.com/manual#permissions"}},
		// Zed uses the first file it finds of .rules, .cursorrules, …,
		// AGENTS.md, CLAUDE.md, GEMINI.md: charter's .rules comes first.
		// Zed's settings.json is JSONC; context_servers holds servers.
		{Name: "zed", Display: "Zed", DefaultDir: ".config/zed", ProjectFile: ".rules", Format: FormatBlock, Reads: []Read{{Path: ".rules"}},
			// Shell rules in agent.tool_permissions (govzed.go), user only.
			User:    Places{MCP: "settings.json", MCPFormat: "zed", Permissions: "settings.json", PermFormat: "zed"},
			Project: with(shared, Places{MCP: ".zed/settings.json", MCPFormat: "zed", PermNone: zedProjectPermNone}), Scoping: "none", Trust: "none documented", Verified: "documentation (not on npm)",
			Docs: []string{"https://zed.dev/docs/ai/rules", "https://zed.dev/docs/ai/mcp", "https://zed.dev/docs/configuring-zed",
				"https://zed.dev/docs/ai/tool-permissions", "https://github.com/zed-industries/zed/blob/main/crates/settings_content/src/project.rs"}},
		{Name: "warp", Display: "Warp", DefaultDir: ".warp", ProjectFile: "AGENTS.md", Format: FormatBlock, Reads: agentsMD,
			// Servers in ~/.warp/.mcp.json and a project's .warp/.mcp.json
			// (Warp's own agent-add-mcp skill, warpdotdev/warp).
			User:    Places{Skills: Place{Dir: "skills/"}, MCP: ".mcp.json", MCPFormat: "plain", PermNone: warpPermNone},
			Project: with(shared, Places{MCP: ".warp/.mcp.json", MCPFormat: "plain", PermNone: warpPermNone}),
			Scoping: "none (AGENTS.md per directory)", Trust: "none documented", Verified: "documentation (not on npm)",
			Docs: []string{"https://docs.warp.dev/agent-platform/capabilities/rules/", "https://docs.warp.dev/agent-platform/capabilities/skills/",
				"https://docs.warp.dev/agents/capabilities/mcp"}},
		// Goose's config folder (config.yaml, .goosehints, skills/) is
		// $GOOSE_PATH_ROOT/config when that is absolute, else etcetera's
		// XDG one: $XDG_CONFIG_HOME/goose, else ~/.config/goose
		// (crates/goose/src/config/paths.rs); on Windows etcetera's Windows
		// strategy: the home's AppData/Roaming/Block/goose/config.
		{Name: "goose", Display: "Goose", DirVar: "GOOSE_PATH_ROOT", DirSub: "config", XDGDir: "goose", WindowsDir: "AppData/Roaming/Block/goose/config",
			DefaultDir: ".config/goose", UserFile: ".goosehints",
			ProjectFile: "AGENTS.md", Format: FormatBlock, Reads: agentsMD,
			// Servers are extensions in config.yaml (Goose's config-files guide).
			User:    Places{RulesInBlock: true, Skills: Place{Dir: "skills/"}, MCP: "config.yaml", MCPFormat: "goose", PermNone: goosePermNone},
			Project: with(shared, Places{MCPNone: gooseProjectMCPNone, PermNone: goosePermNone}),
			Scoping: "none (hints per directory)", Trust: "none documented", Verified: "documentation (not on npm)",
			Docs: []string{"https://goose-docs.ai/docs/guides/context-engineering/using-goosehints/",
				"https://block.github.io/goose/docs/guides/config-files"}},
		// Crush loads every file of its context paths it finds.
		{Name: "crush", Display: "Crush", DirVar: "CRUSH_GLOBAL_CONFIG", DefaultDir: ".config/crush", ProjectFile: "CRUSH.md", Format: FormatBlock,
			Reads: []Read{{Path: "CRUSH.md"}, {Path: "AGENTS.md"}, {Path: "CLAUDE.md"}, {Path: "GEMINI.md"},
				{Path: ".github/copilot-instructions.md"}, {Path: ".cursor/rules/"}},
			// Servers in crush.json's "mcp": JSON is deprecated beside the
			// Bash crushrc but still read and merged (docs/config/README.md).
			User:    Places{Skills: Place{Dir: "skills/"}, MCP: "crush.json", MCPFormat: "crush", PermNone: crushPermNone},
			Project: Places{RulesInBlock: true, MCP: "crush.json", MCPFormat: "crush", PermNone: crushPermNone},
			Scoping: "none (every context file loaded whole)", Trust: "none documented", NPM: "@charmland/crush", Verified: "documentation and source",
			Docs: []string{"https://github.com/charmbracelet/crush/blob/main/internal/config/config.go",
				"https://github.com/charmbracelet/crush/blob/main/docs/config/README.md"}},
		{Name: "droid", Display: "Factory Droid", DefaultDir: ".factory", UserFile: "AGENTS.md", ProjectFile: "AGENTS.md", Format: FormatBlock,
			Reads: agentsMD,
			// Shell rules in settings.json's command lists (droid format);
			// servers in mcp.json beside it.
			User: Places{RulesInBlock: true, Skills: Place{Dir: "skills/"}, Commands: Place{"commands/", ".md", "md"},
				Permissions: "settings.json", PermFormat: "droid", MCP: "mcp.json", MCPFormat: "mcpServers"},
			Project: Places{RulesInBlock: true, Skills: Place{Dir: ".factory/skills/"}, Commands: Place{".factory/commands/", ".md", "md"},
				Permissions: ".factory/settings.json", PermFormat: "droid", MCP: ".factory/mcp.json", MCPFormat: "mcpServers"},
			Scoping: "none (AGENTS.md per directory)", Trust: "none documented", NPM: "droid", Verified: "documentation",
			Docs: []string{"https://docs.factory.ai/cli/configuration/agents-md", "https://docs.factory.ai/cli/configuration/custom-slash-commands",
				"https://docs.factory.ai/cli/configuration/settings", "https://docs.factory.ai/factory-cli/configuration/mcp"}},
		{Name: "jules", Display: "Jules", ProjectFile: "AGENTS.md", Format: FormatBlock, Reads: agentsMD,
			Project: Places{RulesInBlock: true}, Scoping: "none", Trust: "runs in Google's cloud VM", NPM: "@google/jules", Verified: "documentation",
			Docs: []string{"https://jules.google/docs"}},
	}
}

// with is p plus the permission and server places of more.
func with(p, more Places) Places {
	p.Permissions, p.PermFormat, p.PermPolicy, p.PermNone = more.Permissions, more.PermFormat, more.PermPolicy, more.PermNone
	p.MCP, p.MCPFormat, p.MCPNone = more.MCP, more.MCPFormat, more.MCPNone
	return p
}
