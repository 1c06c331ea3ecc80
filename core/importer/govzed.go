package importer

import (
	"encoding/json"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/settings"
)

// zedRules reads Zed's agent.tool_permissions: the terminal tool's
// always_deny, always_confirm and always_allow patterns written as a
// command prefix (^WORDS(\s|$), apply's form) become shell: rules; any
// other pattern, and the other tools' rules, are skipped with why.
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
	for _, tool := range sortedKeys(agent.ToolPermissions.Tools) {
		lists := agent.ToolPermissions.Tools[tool]
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
				prefix, ok := apply.ZedShellPrefix(e.Pattern)
				switch {
				case tool != "terminal":
					it.Reason = "charter reads the terminal tool's patterns only: carry this one over by hand"
				case !ok:
					it.Reason = "a regex charter's shell: rule cannot hold (it reads ^WORDS(\\s|$), a command prefix): carry it over by hand"
				default:
					if r, err := settings.ParseRule("shell:" + prefix); err == nil {
						it.State, it.Rule = StateImported, r.String()
					} else {
						it.Reason = "becomes shell:" + prefix + ", which charter refuses: " + err.Error()
					}
				}
				out = append(out, it)
			}
		}
	}
	return out, nil
}
