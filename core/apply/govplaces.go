package apply

import (
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
)

// fileFormat is how a permission or server format's file is edited.
func fileFormat(format string) string {
	switch format {
	case "codex":
		return "rules"
	case "codextoml":
		return "toml"
	case "continue", "goose":
		return "yaml"
	}
	return "json"
}

// recordFormat is the format of a file only the record names.
func recordFormat(path string, es []GovEntry) string {
	switch {
	case es[0].Key == "file":
		return "rules"
	case strings.HasSuffix(path, ".toml"):
		return "toml"
	case strings.HasSuffix(path, ".yaml"):
		return "yaml"
	}
	return "json"
}

// recordJSONC says whether path, a file only the record names, is one
// agent reads as JSONC: its permission or server file of a JSONC format.
func recordJSONC(sys *core.System, agent, path string) bool {
	for _, a := range sys.AgentTable.All() {
		if a.Name != agent {
			continue
		}
		for _, pl := range []agents.Places{a.User, a.Project} {
			if (agents.JSONC(pl.PermFormat) && pl.Permissions != "" && strings.HasSuffix(path, pl.Permissions)) ||
				(agents.JSONC(pl.MCPFormat) && pl.MCP != "" && strings.HasSuffix(path, pl.MCP)) {
				return true
			}
		}
	}
	return false
}

// mcpPath is the agent's MCP file. Claude keeps its user-level servers in
// .claude.json: inside CLAUDE_CONFIG_DIR (or the profile's directory) when
// one is set, else beside ~/.claude, in the home.
func mcpPath(sys *core.System, a agents.Agent, level, dir, file string) string {
	if level == LevelUser && file == ".claude.json" {
		if home, err := sys.Home(); err == nil && dir == sys.Paths.Join(home, a.DefaultDir) {
			return sys.Paths.Join(home, file)
		}
	}
	return sys.Paths.Join(dir, file)
}

// UnsupportedWhy says why an agent's permission format has no place for
// rule r: the table's reason, which apply reports and permissions check
// shows.
func UnsupportedWhy(a agents.Agent, format string, r settings.Rule) string {
	return unsupportedWhy(a, format, r)
}

// unsupportedWhy says why an agent's format has no place for rule r.
func unsupportedWhy(a agents.Agent, format string, r settings.Rule) string {
	switch {
	case format == "codex":
		return codexWhy(a.Display, r.Kind)
	case format == "droid":
		return droidWhy(a.Display)
	case format == "amp" || format == "augment":
		return frontWhy(a.Display, format)
	case format == "zed":
		return zedWhy(a.Display, r)
	case format == "gemini" && r.Kind == settings.RuleWeb:
		return a.Display + "'s web_fetch is one tool for every URL, not per domain: charter writes it for web:* only (a deny or allow; Gemini has no ask list)"
	case format == "gemini" && r.Kind != settings.RuleShell:
		return a.Display + "'s tools.exclude and tools.allowed hold shell commands only (run_shell_command(PREFIX)): no " + r.Kind + " rule"
	case format == "continue":
		return a.Display + "'s permissions.yaml matches a file or fetch tool's argument as the model writes it (not a project path or a domain) and an MCP tool by its own name (not its server's): charter writes its shell rules only"
	case format == "opencode" && r.Kind == settings.RuleWeb:
		return a.Display + "'s webfetch permission is one action for every URL, not per domain"
	case format == "opencode":
		return a.Display + " matches read and edit paths relative to the project only (outside it: its external_directory setting)"
	case format == "cursor" && r.Kind == settings.RuleShell:
		return a.Display + " matches a shell command by its first word only (Shell(" + strings.Fields(r.Arg)[0] + ")), and has no ask list"
	}
	return a.Display + " has no place for this rule"
}

// codexWhy says why a Codex rule of kind has no place: its execpolicy
// rules match commands, and its sandbox (sandbox_mode and
// [sandbox_workspace_write]) switches whole capabilities, not per path or
// domain.
func codexWhy(display, kind string) string {
	switch kind {
	case settings.RuleWeb:
		return display + "'s sandbox switches the network on or off (network_access), not per domain: charter cuts it for a deny of web:* only"
	case settings.RuleRead:
		return display + "'s sandbox lets every path be read in every mode: it has no per-path read setting"
	case settings.RuleWrite:
		return display + "'s sandbox sets where it may write by mode and whole directories (writable_roots), not by path pattern"
	case settings.RuleMCP:
		return display + "'s command rules hold shell commands only: no rule for an MCP tool"
	}
	return display + " has no place for this rule"
}

// codexWebEveryWhy says why an ask or allow of web:* has no Codex place:
// the sandbox's switch would have to turn the network on.
func codexWebEveryWhy(display string) string {
	return display + "'s sandbox switches the network on or off, not per domain, and has no ask for it: charter writes network_access = false for a deny of web:* and never turns the network on"
}

// govOnlyAgents are the agents with no user-level instruction file but a
// user-level permission or server place (Cursor's CLI): planned for those
// alone, by default when their directory exists and with --agent all, never
// inside a profile (it serves its own provider's agents).
func govOnlyAgents(sys *core.System, names []string) []agents.Agent {
	if len(names) > 0 && !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(strings.TrimSpace(n), All) }) {
		return namedGovOnly(sys, names) // named: planned whether or not its directory exists
	}
	if profile.Active(sys).Active {
		return nil
	}
	var out []agents.Agent
	for _, a := range sys.AgentTable.All() {
		if a.UserFile != "" || a.DefaultDir == "" || (a.User.PermFormat == "" && a.User.MCPFormat == "") {
			continue
		}
		dir, err := profile.AgentDir(sys, a)
		if err != nil {
			continue
		}
		if fi, err := sys.Fs.Stat(dir); err == nil && fi.IsDir() {
			out = append(out, a)
		}
	}
	return out
}

// namedGovOnly are the agents of names with no user-level instruction file
// but a user-level permission or server place (Continue, Cline).
func namedGovOnly(sys *core.System, names []string) []agents.Agent {
	var out []agents.Agent
	for _, a := range sys.AgentTable.All() {
		if a.UserFile == "" && (a.User.PermFormat != "" || a.User.MCPFormat != "") &&
			slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(strings.TrimSpace(n), a.Name) }) {
			out = append(out, a)
		}
	}
	return out
}
