package importer

// OpenCode's and Kilo Code's permission and mcp objects (opencode.json,
// kilo.json), and Qwen Code's Bash(PREFIX) entries, read into charter's
// grammar: what apply writes comes back as the same rule.

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/settings"
)

// opencodeRules reads permission: bash patterns "PREFIX *" as shell:,
// read and edit patterns as read: and write:, a top-level "SERVER_*" as
// mcp:SERVER; the value is the verdict.
func opencodeRules(f GovFile, doc map[string]json.RawMessage) ([]GovItem, error) {
	raw, ok := doc["permission"]
	if !ok {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		var one string
		if json.Unmarshal(raw, &one) == nil {
			return []GovItem{{What: WhatRule, File: f.Path, Native: "permission: " + one, State: StateSkipped,
				Reason: "one action for every tool: charter's rules name a command, path, domain or server; it stays in the file"}}, nil
		}
		return nil, badShape(f, "permission", "an object or one action")
	}
	var out []GovItem
	for _, key := range sortedKeys(obj) {
		var action string
		if json.Unmarshal(obj[key], &action) == nil {
			it := GovItem{What: WhatRule, File: f.Path, Native: "permission." + key + ": " + action, Verdict: action, State: StateSkipped}
			if srv, ok := strings.CutSuffix(key, "_*"); ok && settings.ValidServerName(srv) {
				it.State, it.Rule = StateImported, "mcp:"+srv
			} else if key == "webfetch" {
				it.State, it.Rule = StateImported, "web:"+settings.WebEvery // one action for every URL
			} else {
				it.Reason = "one action for a whole tool (or a server's tool, which charter cannot tell apart): write it as a rule by hand if that is meant"
			}
			out = append(out, verdictOK(it))
			continue
		}
		var patterns map[string]string
		if err := json.Unmarshal(obj[key], &patterns); err != nil {
			return nil, badShape(f, "permission."+key, `an action or an object of pattern → "allow", "ask" or "deny"`)
		}
		for _, p := range sortedKeys(patterns) {
			it := GovItem{What: WhatRule, File: f.Path, Native: fmt.Sprintf("permission.%s: %q: %s", key, p, patterns[p]), Verdict: patterns[p], State: StateImported}
			rule, why := fromOpenCode(key, p)
			if why != "" {
				it.State, it.Reason = StateSkipped, why
			} else if r, err := settings.ParseRule(rule); err != nil {
				it.State, it.Reason = StateSkipped, fmt.Sprintf("becomes %s, which charter refuses: %v", rule, err)
			} else {
				it.Rule = r.String()
			}
			out = append(out, verdictOK(it))
		}
	}
	return out, nil
}

// verdictOK skips an item whose action is not one of charter's verdicts.
func verdictOK(it GovItem) GovItem {
	if it.State == StateImported && it.Verdict != "allow" && it.Verdict != "ask" && it.Verdict != "deny" {
		it.State, it.Rule, it.Reason = StateSkipped, "", `the action is not "allow", "ask" or "deny"`
	}
	return it
}

// fromOpenCode is pattern p of permission.key in charter's grammar, or why
// it has none.
func fromOpenCode(key, p string) (rule, why string) {
	switch key {
	case "bash":
		if prefix, ok := strings.CutSuffix(p, " *"); ok && !strings.Contains(prefix, "*") && strings.TrimSpace(prefix) != "" {
			return "shell:" + prefix, ""
		}
		return "", "not a command prefix (PREFIX *): charter's shell: rule is a prefix; write it by hand if that is meant"
	case "read", "edit":
		if p == "*" {
			return "", "every path: charter's rules name a path; it stays in the file"
		}
		kind := "read"
		if key == "edit" {
			kind = "write"
		}
		return kind + ":" + strings.TrimPrefix(p, "./"), ""
	}
	return "", "a permission charter's grammar has no rule for (bash, read, edit, SERVER_*)"
}

// opencodeServers reads mcp: type local (command as a list, environment)
// or remote (url, headers); {env:VAR} becomes ${VAR}.
func opencodeServers(f GovFile, doc map[string]json.RawMessage) ([]GovItem, error) {
	raw, ok := doc["mcp"]
	if !ok {
		return nil, nil
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, badShape(f, "mcp", "an object of servers by name")
	}
	var out []GovItem
	for _, name := range sortedKeys(entries) {
		it := GovItem{What: WhatServer, File: f.Path, Native: "mcp." + name, Server: name, State: StateImported}
		var e struct {
			Type        string            `json:"type"`
			Command     []string          `json:"command"`
			Environment map[string]string `json:"environment"`
			URL         string            `json:"url"`
			Headers     map[string]string `json:"headers"`
		}
		var fields map[string]json.RawMessage
		switch {
		case json.Unmarshal(entries[name], &fields) != nil || json.Unmarshal(entries[name], &e) != nil:
			it.State, it.Reason = StateSkipped, "not a server entry charter can read (type, command as a list of text, environment or url, headers)"
		case name == ownServer:
			it.State, it.Reason = StateSkipped, "charter's own server: charter apply registers it"
		case !validName(name):
			it.State, it.Reason = StateSkipped, "the name is not a charter server name (letters, digits, - and _): rename it in the file and import again"
		default:
			ns := nativeServer{URL: e.URL, Env: opencodeRefs(e.Environment), Headers: opencodeRefs(e.Headers)}
			if len(e.Command) > 0 {
				ns.Command, ns.Args = e.Command[0], e.Command[1:]
			}
			for _, k := range []string{"type", "command", "environment"} {
				delete(fields, k) // OpenCode's spelling of what charter carries
			}
			convert(&it, ns, fields)
		}
		out = append(out, it)
	}
	return out, nil
}

var opencodeEnv = lazy.Regexp{Expr: `\{env:([A-Za-z_][A-Za-z0-9_]*)\}`}

func opencodeRefs(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = opencodeEnv.Get().ReplaceAllString(v, "$${$1}")
	}
	return out
}

// fromQwen reads Qwen Code's entries: Bash(PREFIX) is a prefix (it matches
// PREFIX and PREFIX followed by more), WebFetch(DOMAIN) a domain, Read(/X)
// a path from the project root; the rest as Claude's.
func fromQwen(e string) (rule, why string) {
	if inner, ok := strings.CutPrefix(e, "Bash("); ok && strings.HasSuffix(inner, ")") {
		p := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(inner, ")"), " *"), ":*")
		if p == "" || strings.Contains(p, "*") {
			return "", "not a command prefix: charter's shell: rule is a prefix; write it by hand if that is meant"
		}
		return "shell:" + p, ""
	}
	if d, ok := strings.CutPrefix(e, "WebFetch("); ok && strings.HasSuffix(d, ")") && !strings.HasPrefix(d, "domain:") {
		return "web:" + strings.TrimSuffix(d, ")"), ""
	}
	if m := claudePath.Get().FindStringSubmatch(e); m != nil && strings.HasPrefix(m[2], "/") && !strings.HasPrefix(m[2], "//") {
		return fromNative("claude", m[1]+"("+strings.TrimPrefix(m[2], "/")+")")
	}
	return fromNative("claude", e)
}
