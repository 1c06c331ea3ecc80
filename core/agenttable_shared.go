package core

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
			User:    Places{RulesInBlock: true, Skills: Place{Dir: "skills/"}, Commands: Place{"commands/", ".md", "md"}},
			Project: Places{RulesInBlock: true, Skills: Place{Dir: ".opencode/skills/"}, Commands: Place{".opencode/commands/", ".md", "md"}},
			Scoping: "none (CLAUDE.md only when there is no AGENTS.md)", Trust: "none documented", NPM: "opencode-ai", Verified: "real agent 1.18.33",
			Docs: []string{"https://opencode.ai/docs/rules/", "https://opencode.ai/docs/commands/", "https://opencode.ai/docs/skills/"}},
		{Name: "amp", Display: "Amp", DefaultDir: ".config/amp", UserFile: "AGENTS.md", ProjectFile: "AGENTS.md", Format: FormatBlock,
			Reads: agentsMD, User: Places{RulesInBlock: true}, Project: shared,
			Scoping: "none (globs: only in files AGENTS.md @-mentions)", Trust: "none documented", NPM: "@ampcode/cli", Verified: "documentation",
			Docs: []string{"https://ampcode.com/manual#AGENTS.md", "https://ampcode.com/manual#agent-skills"}},
		// Zed uses the first file it finds of .rules, .cursorrules, …,
		// AGENTS.md, CLAUDE.md, GEMINI.md: charter's .rules comes first.
		{Name: "zed", Display: "Zed", ProjectFile: ".rules", Format: FormatBlock, Reads: []Read{{Path: ".rules"}},
			Project: shared, Scoping: "none", Trust: "none documented", Verified: "documentation (not on npm)",
			Docs: []string{"https://zed.dev/docs/ai/rules"}},
		{Name: "warp", Display: "Warp", DefaultDir: ".warp", ProjectFile: "AGENTS.md", Format: FormatBlock, Reads: agentsMD,
			User: Places{Skills: Place{Dir: "skills/"}}, Project: shared,
			Scoping: "none (AGENTS.md per directory)", Trust: "none documented", Verified: "documentation (not on npm)",
			Docs: []string{"https://docs.warp.dev/agent-platform/capabilities/rules/", "https://docs.warp.dev/agent-platform/capabilities/skills/"}},
		{Name: "goose", Display: "Goose", DirVar: "GOOSE_PATH_ROOT", DefaultDir: ".config/goose", UserFile: ".goosehints",
			ProjectFile: "AGENTS.md", Format: FormatBlock, Reads: agentsMD,
			User: Places{RulesInBlock: true, Skills: Place{Dir: "skills/"}}, Project: shared,
			Scoping: "none (hints per directory)", Trust: "none documented", Verified: "documentation (not on npm)",
			Docs: []string{"https://goose-docs.ai/docs/guides/context-engineering/using-goosehints/"}},
		// Crush loads every file of its context paths it finds.
		{Name: "crush", Display: "Crush", DirVar: "CRUSH_GLOBAL_CONFIG", DefaultDir: ".config/crush", ProjectFile: "CRUSH.md", Format: FormatBlock,
			Reads: []Read{{Path: "CRUSH.md"}, {Path: "AGENTS.md"}, {Path: "CLAUDE.md"}, {Path: "GEMINI.md"},
				{Path: ".github/copilot-instructions.md"}, {Path: ".cursor/rules/"}},
			User: Places{Skills: Place{Dir: "skills/"}}, Project: Places{RulesInBlock: true},
			Scoping: "none (every context file loaded whole)", Trust: "none documented", NPM: "@charmland/crush", Verified: "documentation and source",
			Docs: []string{"https://github.com/charmbracelet/crush/blob/main/internal/config/config.go"}},
		{Name: "droid", Display: "Factory Droid", DefaultDir: ".factory", UserFile: "AGENTS.md", ProjectFile: "AGENTS.md", Format: FormatBlock,
			Reads:   agentsMD,
			User:    Places{RulesInBlock: true, Skills: Place{Dir: "skills/"}, Commands: Place{"commands/", ".md", "md"}},
			Project: Places{RulesInBlock: true, Skills: Place{Dir: ".factory/skills/"}, Commands: Place{".factory/commands/", ".md", "md"}},
			Scoping: "none (AGENTS.md per directory)", Trust: "none documented", NPM: "droid", Verified: "documentation",
			Docs: []string{"https://docs.factory.ai/cli/configuration/agents-md", "https://docs.factory.ai/cli/configuration/custom-slash-commands"}},
		{Name: "jules", Display: "Jules", ProjectFile: "AGENTS.md", Format: FormatBlock, Reads: agentsMD,
			Project: Places{RulesInBlock: true}, Scoping: "none", Trust: "runs in Google's cloud VM", NPM: "@google/jules", Verified: "documentation",
			Docs: []string{"https://jules.google/docs"}},
	}
}
