package agents

// Why an agent known from its documentation has no permission or MCP file
// charter writes at a level (Places.PermNone, Places.MCPNone): `charter
// permissions list`, apply's report and doctor say these words. Each was
// checked against the agent's documentation (its table entry's Docs).
const (
	windsurfPermNone = "Windsurf keeps Cascade's command allow and deny lists in the editor's settings (Settings > Cascade), not in a file of its own charter can write"
	windsurfMCPNone  = "Windsurf reads MCP servers only from ~/.codeium/windsurf/mcp_config.json: it has no project file for them"

	rooPermNone = "Roo Code keeps its auto-approve lists (allowed and denied commands) in VS Code's extension state, not in a file"
	rooMCPNone  = "Roo Code keeps its global servers in VS Code's extension storage (globalStorage/…/mcp_settings.json), whose place depends on the editor and platform: charter writes the project's .roo/mcp.json"

	augmentPermNone = "Auggie reads toolPermissions from ~/.augment/settings.json only: apply at user level"
	augmentMCPNone  = "Auggie reads MCP servers from ~/.augment/settings.json (or --mcp-config); it documents no project file for them"

	kiroPermNone = "Kiro keeps tool permissions in each custom agent's JSON (allowedTools, toolsSettings) and in the IDE's settings, not in one file every session reads"

	juniePermNone = "Junie's Action Allowlist is a setting of the JetBrains IDE, not a file"

	antigravityPermNone = "Antigravity's terminal command allow and deny lists are settings of the app, not a documented file"

	zedProjectPermNone = "Zed reads agent.tool_permissions from the user's settings.json only: a project's .zed/settings.json holds no agent settings (ProjectSettingsContent); apply at user level"

	warpPermNone = "Warp's agent command allowlist and denylist are settings of the app (its agent profiles), not a file"

	goosePermNone       = "Goose's permission.yaml sets one level per tool (always_allow, ask_before, never_allow), not per command, path or domain"
	gooseProjectMCPNone = "Goose reads MCP servers (extensions) only from its user config.yaml: it has no project file for them"

	crushPermNone = "Crush's permissions.allowed_tools only lists whole tools it may run without asking: it has no deny or ask list and no per-command rule"
)
