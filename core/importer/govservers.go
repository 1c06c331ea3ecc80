package importer

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/settings"
)

// ownServer is the entry charter registers itself under: apply writes it,
// import leaves it (apply.MCPServerName, not imported to keep the layers apart).
const ownServer = "charter"

// nativeServer is an MCP server entry as the agents write it.
type nativeServer struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	URL     string            `json:"url"`
	HTTPURL string            `json:"httpUrl"`
	// ServerURL is Windsurf's and Antigravity's address of a remote server.
	ServerURL string            `json:"serverUrl"`
	Headers   map[string]string `json:"headers"`
}

// carried are the fields charter's server holds; the others are reported.
var carried = lazy.Value[map[string]bool]{Make: func() map[string]bool {
	return map[string]bool{"type": true, "command": true, "args": true, "env": true, "url": true, "httpUrl": true, "serverUrl": true, "headers": true}
}}

// envRefs: Cursor's and VS Code's ${env:VAR}, charter's ${VAR}.
var envRefs = lazy.Regexp{Expr: `\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}`}

// nativeServers reads mcpServers (servers in VS Code's file).
func nativeServers(f GovFile, doc map[string]json.RawMessage) ([]GovItem, error) {
	member := "mcpServers"
	switch f.Format {
	case "vscode":
		member = "servers"
	case "mcpServers", "gemini", "qwen", "cursor", "copilot", "windsurf", "roo", "plain", "junie", "cline", "continue": // qwen: its settings.json holds both
	case "crush":
		member = "mcp"
	case "amp":
		member = "amp.mcpServers" // one flat key
	case "zed":
		member = "context_servers"
	case "goose":
		member = "extensions"
	case "codextoml":
		return codexServers(f)
	case "opencode":
		return opencodeServers(f, doc)
	default:
		return []GovItem{{What: WhatServer, File: f.Path, Native: f.Format, State: StateSkipped,
			Reason: "charter cannot read this agent's MCP servers yet: carry them over by hand"}}, nil
	}
	raw, ok := doc[member]
	if !ok {
		return nil, nil
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, badShape(f, member, "an object of servers by name")
	}
	var out []GovItem
	for _, name := range sortedKeys(entries) {
		it := GovItem{What: WhatServer, File: f.Path, Native: member + "." + name, Server: name, State: StateImported}
		var fields map[string]json.RawMessage
		var ns nativeServer
		if json.Unmarshal(entries[name], &fields) != nil || json.Unmarshal(entries[name], &ns) != nil {
			it.State, it.Reason = StateSkipped, "not a server entry charter can read (command, args, env or url, headers as text)"
			out = append(out, it)
			continue
		}
		switch {
		case name == ownServer:
			it.State, it.Reason = StateSkipped, "charter's own server: charter apply registers it"
		case !validName(name):
			it.State, it.Reason = StateSkipped, "the name is not a charter server name (letters, digits, - and _): rename it in the file and import again"
		default:
			convert(&it, ns, fields)
		}
		out = append(out, it)
	}
	return out, nil
}

func validName(s string) bool { return settings.ValidServerName(s) }

// convert fills in it's server from ns; a literal secret becomes a ${VAR}
// reference with a note, a field charter has no place for a note.
func convert(it *GovItem, ns nativeServer, fields map[string]json.RawMessage) {
	s := settings.Server{Name: it.Server, Command: ns.Command, Args: ns.Args, URL: ns.URL}
	if s.URL == "" {
		s.URL = ns.HTTPURL
	}
	if s.URL == "" {
		s.URL = ns.ServerURL
	}
	if ns.Type == "sse" {
		it.note("type sse: charter projects a url server as streamable HTTP; check that the server speaks it")
	}
	s.Env = it.refs("env", ns.Env)
	s.Headers = it.refs("headers", ns.Headers)
	for _, k := range sortedKeys(fields) {
		var tools []string
		if k == "tools" && json.Unmarshal(fields[k], &tools) == nil && len(tools) == 1 && tools[0] == "*" {
			continue // the Copilot CLI's every-tool list, as charter writes it
		}
		if !carried.Get()[k] {
			it.note("%s is not carried.Get() over: charter's servers have command, args, env or url, headers; it stays in %s", k, it.File)
		}
	}
	if msg := s.Problem(); msg != "" {
		it.State, it.Reason = StateSkipped, msg
		return
	}
	it.Def = &s
}

// refs is m with every reference in charter's spelling and every literal
// secret replaced by ${NAME}, noted: the value is never copied.
func (it *GovItem) refs(field string, m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for _, k := range sortedKeys(m) {
		v := envRefs.Get().ReplaceAllString(m[k], "$${$1}")
		if settings.LiteralSecret(k, v) {
			ref := "${" + varName(k) + "}"
			prefix := ""
			for _, p := range []string{"Bearer ", "Basic "} {
				if strings.HasPrefix(v, p) {
					prefix = p
				}
			}
			v = prefix + ref
			it.note("%s %s held a literal secret: not copied; written as %s: set %s in the environment the agent starts from", field, k, v, varName(k))
		}
		out[k] = v
	}
	return out
}

// varName is an environment variable's name for a variable or header.
func varName(k string) string {
	var b strings.Builder
	for _, c := range strings.ToUpper(k) {
		if c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	if s := b.String(); s != "" && (s[0] < '0' || s[0] > '9') {
		return s
	}
	return fmt.Sprintf("V_%s", b.String())
}

func (it *GovItem) note(format string, args ...any) {
	it.Notes = append(it.Notes, fmt.Sprintf(format, args...))
}
