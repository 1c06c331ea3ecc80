package importer

import (
	"github.com/BurntSushi/toml"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/settings"
)

// codexServer is a [mcp_servers.NAME] table of Codex's config.toml.
type codexServer struct {
	Command           string            `toml:"command"`
	Args              []string          `toml:"args"`
	Env               map[string]string `toml:"env"`
	URL               string            `toml:"url"`
	BearerTokenEnvVar string            `toml:"bearer_token_env_var"`
	HTTPHeaders       map[string]string `toml:"http_headers"`
	EnvHTTPHeaders    map[string]string `toml:"env_http_headers"` // header → variable
}

// codexCarried are the keys read into charter's server.
var codexCarried = lazy.Value[map[string]bool]{Make: func() map[string]bool {
	return map[string]bool{"command": true, "args": true, "env": true, "url": true,
		"bearer_token_env_var": true, "http_headers": true, "env_http_headers": true}
}}

// codexServers reads the servers of Codex's config.toml; a file that is
// not TOML fails the import, naming the file.
func codexServers(f GovFile) ([]GovItem, error) {
	var doc struct {
		Servers map[string]codexServer `toml:"mcp_servers"`
	}
	md, err := toml.Decode(string(f.Data), &doc)
	if err != nil {
		return nil, core.Errorf(core.CodeMalformedSettings, "%s is not valid TOML (%v): nothing was imported; fix the file and import again", f.Path, err)
	}
	var out []GovItem
	for _, name := range sortedKeys(doc.Servers) {
		cs := doc.Servers[name]
		it := GovItem{What: WhatServer, File: f.Path, Native: "mcp_servers." + name, Server: name, State: StateImported}
		if name == ownServer {
			it.State, it.Reason = StateSkipped, "charter's own server: charter apply registers it"
			out = append(out, it)
			continue
		}
		if !validName(name) {
			it.State, it.Reason = StateSkipped, "the name is not a charter server name (letters, digits, - and _): rename it in the file and import again"
			out = append(out, it)
			continue
		}
		headers := map[string]string{}
		for k, v := range cs.HTTPHeaders {
			headers[k] = v
		}
		for k, v := range cs.EnvHTTPHeaders {
			headers[k] = "${" + v + "}"
		}
		if cs.BearerTokenEnvVar != "" {
			headers["Authorization"] = "Bearer ${" + cs.BearerTokenEnvVar + "}"
		}
		if len(headers) == 0 {
			headers = nil
		}
		ns := nativeServer{Command: cs.Command, Args: cs.Args, Env: cs.Env, URL: cs.URL, Headers: headers}
		fields := map[string][]byte{}
		for _, k := range md.Keys() {
			if len(k) == 3 && k[0] == "mcp_servers" && k[1] == name && !codexCarried.Get()[k[2]] {
				fields[k[2]] = nil
			}
		}
		convert(&it, ns, nil)
		for _, k := range sortedKeys(fields) {
			it.note("%s is not carried.Get() over: charter's servers have command, args, env or url, headers; it stays in %s", k, f.Path)
		}
		out = append(out, it)
	}
	return out, nil
}

// codexSandbox reads the sandbox's network switch from a config.toml
// codexServers has read already: network_access = false is a deny of
// web:* (what apply writes for one); true opens the network, which no
// charter rule does for Codex.
func codexSandbox(f GovFile) []GovItem {
	var doc struct {
		Sandbox struct {
			Network *bool `toml:"network_access"`
		} `toml:"sandbox_workspace_write"`
	}
	if _, err := toml.Decode(string(f.Data), &doc); err != nil || doc.Sandbox.Network == nil {
		return nil
	}
	it := GovItem{What: WhatRule, File: f.Path, Native: "sandbox_workspace_write.network_access = false", Verdict: "deny",
		Rule: "web:" + settings.WebEvery, State: StateImported}
	if *doc.Sandbox.Network {
		it = GovItem{What: WhatRule, File: f.Path, Native: "sandbox_workspace_write.network_access = true", State: StateSkipped,
			Reason: "turns the sandbox's network on: charter has no rule that opens it for Codex (an allow of web:* is not projected there); it stays in the file"}
	}
	return []GovItem{it}
}
