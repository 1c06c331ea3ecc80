package apply

// The server and permission shapes of the agents charter knows from their
// documentation only (SPEC §14, §17; the agent table's Docs name the
// pages): each differs from the shared "mcpServers" shape in one way.

import (
	"github.com/agentkit/charter/core/settings"
)

// docServer is s in one of these formats; ok false for another format.
// why is set when the format cannot hold s at all.
//   - "windsurf" (Windsurf, Antigravity): mcpServers, no type field; a
//     remote server's address is serverUrl; ${env:VAR} references.
//   - "roo" (Roo Code's .roo/mcp.json): type "stdio" or "streamable-http";
//     ${env:VAR} references.
//   - "plain" (Kiro, Warp): mcpServers, no type field, ${VAR} as written.
//   - "junie": as plain, stdio servers only.
//   - "amp": plain, under Amp's flat "amp.mcpServers" key.
//   - "crush": Crush's crush.json "mcp": type "stdio" or "http".
//   - "zed": Zed's settings.json "context_servers": no type field and no
//     ${VAR} expansion (zed-industries/zed#60459); a server inherits Zed's
//     environment, so an env entry NAME: ${NAME} is left out.
func docServer(format string, s settings.Server) (v any, why string, ok bool) {
	if v, why, ok := agentServer(format, s); ok {
		return v, why, ok
	}
	type stdio struct {
		Type    string            `json:"type,omitempty"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env,omitempty"`
	}
	type remote struct {
		Type      string            `json:"type,omitempty"`
		URL       string            `json:"url,omitempty"`
		ServerURL string            `json:"serverUrl,omitempty"`
		Headers   map[string]string `json:"headers,omitempty"`
	}
	var local, far string // the type field of each kind, "" for none
	envRef := false       // ${VAR} is written ${env:VAR}
	switch format {
	case "windsurf":
		envRef = true
	case "roo":
		local, far, envRef = "stdio", "streamable-http", true
	case "plain", "amp":
	case "junie":
		if s.Command == "" {
			return nil, "Junie runs MCP servers over stdio only: a server with a url cannot be written for it", true
		}
	case "crush":
		local, far = "stdio", "http"
	case "zed":
		if why := zedEnv(s); why != "" {
			return nil, why, true
		}
		s.Env = nil
	default:
		return nil, "", false
	}
	ref := func(m map[string]string) map[string]string {
		if len(m) == 0 {
			return nil
		}
		out := make(map[string]string, len(m))
		for k, val := range m {
			if envRef {
				val = envVar.Get().ReplaceAllString(val, "$${env:$1}")
			}
			out[k] = val
		}
		return out
	}
	if s.Command != "" {
		args := s.Args
		if args == nil {
			args = []string{}
		}
		return stdio{Type: local, Command: s.Command, Args: args, Env: ref(s.Env)}, "", true
	}
	if format == "windsurf" {
		return remote{ServerURL: s.URL, Headers: ref(s.Headers)}, "", true
	}
	return remote{Type: far, URL: s.URL, Headers: ref(s.Headers)}, "", true
}

// MCPMembers is where an agent's MCP file in format keeps its servers:
// doctor and import read the member apply writes.
func MCPMembers(format string) []string { return mcpMembers(format) }

// docMembers is where these formats keep their servers, nil for another
// format.
func docMembers(format string) []string {
	switch format {
	case "crush":
		return []string{"mcp"}
	case "zed":
		return []string{"context_servers"}
	case "amp":
		return []string{"amp.mcpServers"} // one flat key, dot included
	case "windsurf", "roo", "plain", "junie":
		return []string{"mcpServers"}
	}
	return nil
}

// droidRule is rule r in Factory Droid's settings.json: its command lists
// take a command prefix; deny is commandBlocklist (never runs, even with
// approvals skipped), ask commandDenylist (always asks), allow
// commandAllowlist.
func droidRule(verdict string, r settings.Rule) ([]string, string, bool) {
	if r.Kind != settings.RuleShell {
		return nil, "", false
	}
	list := map[string]string{"deny": "commandBlocklist", "ask": "commandDenylist", "allow": "commandAllowlist"}[verdict]
	return []string{list}, r.Arg, list != ""
}

// droidWhy says why Factory Droid cannot hold a rule.
func droidWhy(display string) string {
	return display + "'s settings hold shell command lists only (commandBlocklist, commandDenylist, commandAllowlist): no per-path, per-domain or per-server rule"
}

// zedEnv says why s cannot be written for Zed, which sends ${VAR} as
// those characters: only env entries that name their own variable pass
// (the server inherits it from Zed).
func zedEnv(s settings.Server) string {
	const why = "Zed does not expand ${VAR} in its settings: the server would get the characters ${...}, not the value; "
	if len(s.Headers) > 0 {
		return why + "add this server in Zed yourself, with the header's value"
	}
	for k, v := range s.Env {
		if v != "${"+k+"}" {
			return why + "a server Zed starts inherits Zed's environment, so set " + k + " there (env " + k + ": ${" + k + "} is then left out)"
		}
	}
	return ""
}
