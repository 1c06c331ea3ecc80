package projection

import (
	"slices"
	"strings"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
)

// Subagent fields per agent (SPEC §12 decisions of 2026-11-27): each agent
// gets the keys it reads, each value in the type it expects, and `tools`
// in its own tool names where it has a table of them. A source's tools are
// Claude Code's names (Read, Grep, mcp__server__tool), as `subagents new`
// scaffolds them; what an agent cannot take is left out, and the report's
// note says so. A list that loses every name is written empty, never
// dropped: without `tools` Gemini and Copilot give a subagent every tool,
// more than its source allows.

// agentTools translates a source's tools for agent: the names it takes,
// in the source's order, each once, and the source names it has none for.
func agentTools(a agents.Agent, format string, tools []string) (out, dropped []string) {
	table := a.Tools
	for _, t := range tools {
		name, ok := "", false
		switch {
		case slices.Contains(a.OwnTools, t):
			name, ok = t, true
		case table[strings.ToLower(t)] != "":
			name, ok = table[strings.ToLower(t)], true
		default:
			name, ok = mcpTool(format, t)
		}
		switch {
		case !ok:
			dropped = append(dropped, t)
		case !slices.Contains(out, name):
			out = append(out, name)
		}
	}
	return out, dropped
}

// mcpTool is Claude's mcp__server__tool in the agent's form: Gemini's
// mcp_server_tool (a server name without "_"), Copilot's server/tool.
func mcpTool(format, t string) (string, bool) {
	rest, ok := strings.CutPrefix(t, "mcp__")
	server, tool, found := strings.Cut(rest, "__")
	if !ok || !found || server == "" || tool == "" {
		return "", false
	}
	switch format {
	case "gemini":
		if strings.Contains(server, "_") {
			return "", false
		}
		return "mcp_" + server + "_" + tool, true
	case "copilot":
		return server + "/" + tool, true
	}
	return "", false
}

func subagentFile(a agents.Agent, format string, it *content.Item) ([]byte, string) {
	body := string(it.Body)
	var notes []string
	model := func() string {
		if it.Model != "" {
			notes = append(notes, "model left out: charter projects it to Claude Code only")
		}
		return ""
	}
	noTools := func(why string) {
		if len(it.Tools) > 0 {
			notes = append(notes, "tools left out: "+why)
		}
	}
	switch format {
	case "codex":
		// Codex custom agents are TOML with no tool list.
		noTools("Codex custom agents have no tool list")
		model()
		s := "name = " + tomlBasic(it.Name) + "\ndescription = " + tomlBasic(it.Description) +
			"\ndeveloper_instructions = " + tomlMultiline(body) + "\n"
		return []byte(s), strings.Join(notes, "; ")
	case "gemini", "copilot":
		tools := ""
		if len(it.Tools) > 0 {
			names, dropped := agentTools(a, format, it.Tools)
			tools = list("tools", names)
			if len(names) == 0 {
				tools = "tools: []"
			}
			if len(dropped) > 0 {
				notes = append(notes, "tools "+oneLine(strings.Join(dropped, ", "))+" have no "+a.Name+" name: left out")
			}
		}
		fm := front(kv("name", it.Name), kv("description", it.Description), tools, model())
		return []byte(fm + body), strings.Join(notes, "; ")
	case "cursor":
		// Cursor's subagents have no tool list (readonly is its switch).
		noTools("Cursor subagents have no tool list")
		fm := front(kv("name", it.Name), kv("description", it.Description), model())
		return []byte(fm + body), strings.Join(notes, "; ")
	}
	// Claude Code reads tools as one comma-separated string.
	tools := ""
	if len(it.Tools) > 0 {
		tools = kv("tools", strings.Join(it.Tools, ", "))
	}
	// The source's other keys (color, permissionMode) are Claude Code's.
	other := strings.TrimSuffix(keptKeys(a.Name, it, "name", "description", "tools", "model"), "\n")
	fm := front(kv("name", it.Name), kv("description", it.Description), tools, kv("model", it.Model), other)
	return []byte(fm + body), ""
}
