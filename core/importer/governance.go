package importer

// Permissions and MCP servers in an agent's native files (SPEC §14), read
// into charter's grammar for `charter import`: every native entry is
// either carried over or reported with its file and why not; a literal
// secret is never copied.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/jsonedit"
	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/settings"
)

// What a governance item is.
const (
	WhatRule   = "rule"
	WhatServer = "server"
)

// GovItem is one native permission entry or server, and what became of it.
type GovItem struct {
	What   string `json:"what"`   // rule or server
	File   string `json:"file"`   // the native file
	Native string `json:"native"` // the entry as the file has it: "permissions.deny: Bash(git push:*)", "mcpServers.notes"
	// Verdict and Rule are a rule's list and charter rule; Server a server's name.
	Verdict string   `json:"verdict,omitempty"`
	Rule    string   `json:"rule,omitempty"`
	Server  string   `json:"server,omitempty"`
	State   string   `json:"state"` // imported, clash, skipped
	Reason  string   `json:"reason,omitempty"`
	Notes   []string `json:"notes,omitempty"`

	Def *settings.Server `json:"-"` // the server to write
}

// GovFile is one native file read.
type GovFile struct {
	Path   string
	Format string // the agent table's PermFormat or MCPFormat
	Perms  bool   // read its permissions
	MCP    bool   // read its servers
	Data   []byte
}

// GovFiles are the files of agent a at level that hold permissions or
// servers, as the agent table places them under base (servers at
// mcpFile, where apply writes them); absent ones left out.
func GovFiles(sys *core.System, a agents.Agent, level, base, within, mcpFile string) ([]GovFile, error) {
	pl := a.At(level)
	var out []GovFile
	add := func(rel, format string, perms bool) error {
		if rel == "" || format == "" {
			return nil
		}
		path := sys.Paths.Join(append([]string{base}, strings.Split(rel, "/")...)...)
		if !perms && mcpFile != "" {
			path = mcpFile
		}
		for i := range out {
			if out[i].Path == path { // Gemini keeps both in settings.json
				out[i].Perms, out[i].MCP = out[i].Perms || perms, out[i].MCP || !perms
				return nil
			}
		}
		var data []byte
		var err error
		if within != "" {
			data, err = sys.ReadWithin(within, path, fsys.KindSettings) // nil: absent
		} else {
			data, err = sys.ReadOptional(path, fsys.KindSettings)
		}
		if err != nil {
			return err
		}
		if data == nil {
			return nil
		}
		out = append(out, GovFile{Path: path, Format: format, Perms: perms, MCP: !perms, Data: data})
		return nil
	}
	if err := add(pl.Permissions, pl.PermFormat, true); err != nil {
		return nil, err
	}
	if err := add(pl.MCP, pl.MCPFormat, false); err != nil {
		return nil, err
	}
	return out, nil
}

// ReadGovernance maps the permissions and servers of files into charter's
// grammar. A file that is not JSON fails it, naming the file: nothing is
// imported from a file charter cannot read whole.
func ReadGovernance(files []GovFile) ([]GovItem, error) {
	var out []GovItem
	for _, f := range files {
		if f.Format == "codextoml" || f.Format == "codex" {
			// Codex's rules file at this place is charter's own
			// (rules/charter.rules); its servers are TOML.
			if f.MCP {
				items, err := codexServers(f)
				if err != nil {
					return nil, err
				}
				out = append(out, items...)
				out = append(out, codexSandbox(f)...)
			}
			continue
		}
		data, err := plainJSON(f)
		if err != nil {
			return nil, err
		}
		var doc map[string]json.RawMessage
		if f.Format == "continue" || f.Format == "goose" {
			read := apply.ContinueDoc
			if f.Format == "goose" {
				read = apply.GooseDoc
			}
			var err error
			if doc, err = read(f.Data); err != nil {
				return nil, core.Errorf(core.CodeMalformedSettings, "%s is not valid %v: nothing was imported; fix the file and import again", f.Path, err)
			}
		} else if err := json.Unmarshal(data, &doc); err != nil {
			return nil, core.Errorf(core.CodeMalformedSettings, "%s is not valid JSON (%v): nothing was imported; fix the file and import again", f.Path, err)
		}
		if f.Perms {
			items, err := nativeRules(f, doc)
			if err != nil {
				return nil, err
			}
			out = append(out, items...)
		}
		if f.MCP {
			items, err := nativeServers(f, doc)
			if err != nil {
				return nil, err
			}
			out = append(out, items...)
		}
	}
	return out, nil
}

// plainJSON is f's JSON with its comments and trailing commas blanked
// when the agent reads the file as JSONC.
func plainJSON(f GovFile) ([]byte, error) {
	if !agents.JSONC(f.Format) {
		return f.Data, nil
	}
	return jsonedit.Blank(f.Data, func(off int, msg string) error {
		line, _ := jsonedit.Position(f.Data, off)
		return core.Errorf(core.CodeMalformedSettings, "%s line %d: %s: nothing was imported; fix the file and import again", f.Path, line, msg)
	})
}

func badShape(f GovFile, where, want string) error {
	return core.Errorf(core.CodeMalformedSettings, "%s: %s is not %s: nothing was imported; fix the file and import again", f.Path, where, want)
}

// nativeRules reads Claude's permissions.{deny,ask,allow} or Gemini's
// tools.{exclude,allowed}.
func nativeRules(f GovFile, doc map[string]json.RawMessage) ([]GovItem, error) {
	var lists []struct{ key, verdict string }
	var obj map[string]json.RawMessage
	switch f.Format {
	case "claude", "qwen":
		lists = []struct{ key, verdict string }{{"deny", "deny"}, {"ask", "ask"}, {"allow", "allow"}}
		if raw, ok := doc["permissions"]; ok && json.Unmarshal(raw, &obj) != nil {
			return nil, badShape(f, "permissions", "an object")
		}
	case "opencode":
		return opencodeRules(f, doc)
	case "zed":
		return zedRules(f, doc)
	case "cursor":
		lists = []struct{ key, verdict string }{{"deny", "deny"}, {"allow", "allow"}}
		if raw, ok := doc["permissions"]; ok && json.Unmarshal(raw, &obj) != nil {
			return nil, badShape(f, "permissions", "an object")
		}
	case "gemini":
		lists = []struct{ key, verdict string }{{"exclude", "deny"}, {"allowed", "allow"}}
		if raw, ok := doc["tools"]; ok && json.Unmarshal(raw, &obj) != nil {
			return nil, badShape(f, "tools", "an object")
		}
	case "continue":
		// cn's ~/.continue/permissions.yaml: top-level lists.
		lists, obj = []struct{ key, verdict string }{{"exclude", "deny"}, {"ask", "ask"}, {"allow", "allow"}}, doc
	case "droid":
		// Factory Droid's command lists are top-level keys of settings.json.
		lists, obj = []struct{ key, verdict string }{{"commandBlocklist", "deny"}, {"commandDenylist", "ask"}, {"commandAllowlist", "allow"}}, doc
	default:
		return []GovItem{{What: WhatRule, File: f.Path, Native: f.Format, State: StateSkipped,
			Reason: "charter cannot read this agent's permissions yet: carry them over by hand"}}, nil
	}
	parent := map[string]string{"claude": "permissions", "qwen": "permissions", "cursor": "permissions", "gemini": "tools"}[f.Format]
	var out []GovItem
	for _, l := range lists {
		raw, ok := obj[l.key]
		if !ok {
			continue
		}
		key := strings.TrimPrefix(parent+"."+l.key, ".")
		var entries []string
		if err := json.Unmarshal(raw, &entries); err != nil {
			return nil, badShape(f, key, "a list of text")
		}
		for _, e := range entries {
			it := GovItem{What: WhatRule, File: f.Path, Native: key + ": " + e, Verdict: l.verdict, State: StateImported}
			rule, why := fromNative(f.Format, e)
			if why != "" {
				it.State, it.Reason = StateSkipped, why
			} else if r, err := settings.ParseRule(rule); err != nil {
				it.State, it.Reason = StateSkipped, fmt.Sprintf("becomes %s, which charter refuses: %v", rule, err)
			} else {
				it.Rule = r.String()
			}
			out = append(out, it)
		}
	}
	if f.Format != "gemini" && f.Format != "droid" && f.Format != "continue" {
		for _, k := range sortedKeys(obj) {
			if k != "deny" && k != "ask" && k != "allow" || (f.Format == "cursor" && k == "ask") {
				out = append(out, GovItem{What: WhatRule, File: f.Path, Native: "permissions." + k, State: StateSkipped,
					Reason: "not a rule list: charter has no place for it; it stays in the file"})
			}
		}
	}
	return out, nil
}

var (
	claudeBash  = lazy.Regexp{Expr: `^Bash\((.+?)(?::\*| \*)\)$`}
	claudePath  = lazy.Regexp{Expr: `^(Read|Edit|Write)\((.+)\)$`}
	claudeWeb   = lazy.Regexp{Expr: `^WebFetch\(domain:(.+)\)$`}
	geminiShell = lazy.Regexp{Expr: `^(?:run_shell_command|ShellTool)\((.+)\)$`}
)

// fromNative is a native entry in charter's grammar, or why it has none.
func fromNative(format, e string) (rule, why string) {
	e = strings.TrimSpace(e)
	if format == "qwen" {
		return fromQwen(e)
	}
	if format == "cursor" {
		return fromCursor(e)
	}
	if format == "droid" {
		return "shell:" + e, ""
	}
	if format == "continue" {
		return fromContinue(e)
	}
	if format == "gemini" {
		if m := geminiShell.Get().FindStringSubmatch(e); m != nil {
			return "shell:" + m[1], ""
		}
		if e == "web_fetch" {
			return "web:" + settings.WebEvery, "" // the whole tool: every domain
		}
		return "", "charter's rules name shell commands for Gemini CLI (run_shell_command(PREFIX)) and web_fetch (web:*); another whole tool has no rule"
	}
	if m := claudeBash.Get().FindStringSubmatch(e); m != nil {
		return "shell:" + m[1], ""
	}
	if strings.HasPrefix(e, "Bash(") {
		return "", "matches one exact command line, and charter's shell: rule is a prefix (it would match more): write it as shell:PREFIX by hand if that is meant"
	}
	if m := claudePath.Get().FindStringSubmatch(e); m != nil {
		p := m[2]
		switch {
		case strings.HasPrefix(p, "//") || (strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//")):
			return "", "an absolute or settings-relative path: charter's read:/write: rules take a path relative to the project or under ~/"
		}
		kind := "read"
		if m[1] != "Read" {
			kind = "write"
		}
		return kind + ":" + strings.TrimPrefix(p, "./"), ""
	}
	if e == "WebFetch" {
		return "web:" + settings.WebEvery, "" // the whole tool: every domain
	}
	if m := claudeWeb.Get().FindStringSubmatch(e); m != nil {
		return "web:" + m[1], ""
	}
	if rest, ok := strings.CutPrefix(e, "mcp__"); ok {
		srv, tool, _ := strings.Cut(rest, "__")
		if tool == "" || tool == "*" {
			return "mcp:" + srv, ""
		}
		return "mcp:" + srv + "/" + tool, ""
	}
	return "", "a Claude Code tool charter's grammar has no rule for (shell:, read:, write:, web:, mcp:)"
}

var cursorPerm = lazy.Regexp{Expr: `^(Shell|Read|Write)\((.+)\)$`}

// fromCursor reads Cursor CLI's cli.json entries: Shell(WORD) matches a
// command by its first word, Read(GLOB) and Write(GLOB) paths.
func fromCursor(e string) (rule, why string) {
	m := cursorPerm.Get().FindStringSubmatch(e)
	if m == nil {
		return "", "a Cursor CLI permission charter's grammar has no rule for (Shell, Read, Write)"
	}
	switch m[1] {
	case "Shell":
		return "shell:" + m[2], ""
	case "Read":
		return "read:" + strings.TrimPrefix(m[2], "./"), ""
	}
	return "write:" + strings.TrimPrefix(m[2], "./"), ""
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
