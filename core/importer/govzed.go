package importer

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/settings"
)

// zedWriteTools are Zed's file-changing tools, where apply writes each
// write rule (core/apply/govzed.go).
var zedWriteTools = []string{"copy_path", "create_directory", "delete_path", "edit_file", "move_path", "restore_file_from_disk", "save_file", "write_file"}

// zedRules reads Zed's agent.tool_permissions in apply's forms: the
// terminal tool's ^WORDS(\s|$) patterns become shell: rules, the file
// tools' path-end patterns write: rules, fetch's host-anchored patterns
// web: rules, an MCP tool's default an mcp:SERVER/TOOL rule. Any other
// pattern or tool is skipped with why; a rule met again in another tool
// is one rule.
func zedRules(f GovFile, doc map[string]json.RawMessage) ([]GovItem, error) {
	var agent struct {
		ToolPermissions *struct {
			Tools map[string]map[string]json.RawMessage `json:"tools"`
		} `json:"tool_permissions"`
	}
	if raw, ok := doc["agent"]; ok && json.Unmarshal(raw, &agent) != nil {
		return nil, badShape(f, "agent.tool_permissions", "an object of tools, each an object of pattern lists")
	}
	if agent.ToolPermissions == nil {
		return nil, nil
	}
	var out []GovItem
	seen := map[string]string{} // verdict and rule → the key it was read from
	add := func(it GovItem, rule string) {
		it.State, it.Rule = StateImported, rule
		if r, err := settings.ParseRule(rule); err != nil {
			it.State, it.Rule, it.Reason = StateSkipped, "", "becomes "+rule+", which charter refuses: "+err.Error()
		} else if first, dup := seen[it.Verdict+" "+r.String()]; dup {
			it.State, it.Rule, it.Reason = StateSkipped, "", "the same rule as "+first+" (charter writes a write rule into every tool that changes files)"
		} else {
			seen[it.Verdict+" "+r.String()] = strings.SplitN(it.Native, ": ", 2)[0]
		}
		out = append(out, it)
	}
	for _, tool := range sortedKeys(agent.ToolPermissions.Tools) {
		lists := agent.ToolPermissions.Tools[tool]
		if srv, name, ok := zedMCPTool(tool); ok {
			if err := zedMCPDefault(f, tool, srv+"/"+name, lists["default"], add, &out); err != nil {
				return nil, err
			}
		}
		for _, l := range []struct{ key, verdict string }{{"always_deny", "deny"}, {"always_confirm", "ask"}, {"always_allow", "allow"}} {
			raw, ok := lists[l.key]
			if !ok {
				continue
			}
			key := "agent.tool_permissions.tools." + tool + "." + l.key
			var entries []struct {
				Pattern string `json:"pattern"`
			}
			if err := json.Unmarshal(raw, &entries); err != nil {
				return nil, badShape(f, key, `a list of {"pattern": …}`)
			}
			for _, e := range entries {
				it := GovItem{What: WhatRule, File: f.Path, Native: key + ": " + e.Pattern, Verdict: l.verdict, State: StateSkipped}
				switch rule, why := zedPatternRule(tool, e.Pattern); {
				case why != "":
					it.Reason = why
					out = append(out, it)
				case l.verdict == "allow" && strings.HasPrefix(rule, "write:"):
					it.Reason = "an allow of a path-end pattern is wider than a write: rule (apply writes none): carry it over by hand"
					out = append(out, it)
				default:
					add(it, rule)
				}
			}
		}
	}
	return out, nil
}

// zedPatternRule is the rule a tool's pattern in apply's form stands for,
// or why none.
func zedPatternRule(tool, pattern string) (rule, why string) {
	switch {
	case tool == "terminal":
		if p, ok := apply.ZedShellPrefix(pattern); ok {
			return "shell:" + p, ""
		}
		return "", "a regex charter's shell: rule cannot hold (it reads ^WORDS(\\s|$), a command prefix): carry it over by hand"
	case slices.Contains(zedWriteTools, tool):
		if g, ok := apply.ZedGlobOf(pattern); ok {
			return "write:" + g, ""
		}
		return "", "a regex charter's write: rule cannot hold (it reads a glob as the end of a path, apply's form): carry it over by hand"
	case tool == "fetch":
		if d, ok := apply.ZedDomainOf(pattern); ok {
			return "web:" + d, ""
		}
		return "", "a regex charter's web: rule cannot hold (it reads a pattern anchored on the URL's host, apply's form): carry it over by hand"
	case strings.HasPrefix(tool, "mcp:"):
		return "", "Zed matches no pattern for an MCP tool, only its default: this one has no effect"
	}
	return "", "charter reads the terminal, file, fetch and MCP tools' rules only: carry this one over by hand"
}

// zedMCPTool splits an MCP tool's key, mcp:SERVER:TOOL.
func zedMCPTool(tool string) (srv, name string, ok bool) {
	rest, ok := strings.CutPrefix(tool, "mcp:")
	if !ok {
		return "", "", false
	}
	srv, name, ok = strings.Cut(rest, ":")
	return srv, name, ok && srv != "" && name != ""
}

// zedMCPDefault reads an MCP tool's default as its rule.
func zedMCPDefault(f GovFile, tool, arg string, raw json.RawMessage, add func(GovItem, string), out *[]GovItem) error {
	if raw == nil {
		return nil
	}
	key := "agent.tool_permissions.tools." + tool + ".default"
	var mode string
	if json.Unmarshal(raw, &mode) != nil {
		return badShape(f, key, `"allow", "confirm" or "deny"`)
	}
	verdict := map[string]string{"deny": "deny", "confirm": "ask", "allow": "allow"}[mode]
	it := GovItem{What: WhatRule, File: f.Path, Native: key + ": " + mode, Verdict: verdict, State: StateSkipped}
	if verdict == "" {
		it.Reason = `Zed takes "allow", "confirm" or "deny" here: fix the value, then import again`
		*out = append(*out, it)
		return nil
	}
	add(it, "mcp:"+arg)
	return nil
}
