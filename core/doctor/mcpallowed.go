package doctor

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/jsonedit"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/tomledit"
)

// mcpAllowed: with the policy's mcp.allowed set, apply projects no other
// server, but one the user added by hand to an agent's own MCP file still
// runs; each such entry, in a file charter manages for an agent apply
// writes for (at either level), fails (SPEC §14).
func mcpAllowed(r *run) []Check {
	const name, label = "mcp-allowed", "MCP servers allowed"
	if r.policy == nil {
		return nil
	}
	allowed := r.policy.MCPAllowed()
	if allowed == nil {
		return nil
	}
	gov := &settings.Governance{Allowed: allowed}
	var out []Check
	files := 0 // read and parsed
	seen := map[string]bool{}
	look := func(full *apply.Full, level, root string) {
		if full == nil {
			return
		}
		for _, t := range full.Targets {
			a, known := r.Sys.AgentTable.Lookup(t.Agent)
			if !known || a.At(level).MCPFormat == "" {
				continue
			}
			dir := root
			if root == "" {
				d, err := profile.AgentDir(r.Sys, a)
				if err != nil {
					continue
				}
				dir = d
			}
			path := apply.MCPPath(r.Sys, a, level, dir)
			if path == "" || seen[path] {
				continue
			}
			seen[path] = true
			data, err := r.Sys.ReadWithin(root, path, fsys.KindSettings) // root "": not confined
			if err != nil || data == nil {
				if err != nil {
					out = append(out, warn(name+":"+a.Name+":"+level, label+" ("+a.Name+")",
						"not checked: "+err.Error(), "make "+path+" readable, then run `charter doctor` again"))
				}
				continue
			}
			files++
			servers, err := nativeServerURLs(a.At(level).MCPFormat, data)
			if err != nil {
				out = append(out, warn(name+":"+a.Name+":"+level, label+" ("+a.Name+")",
					fmt.Sprintf("not checked: %s is not valid %s", path, err.Error()),
					"fix the file by hand, then run `charter doctor` again"))
				continue
			}
			for _, s := range servers {
				if s.Name == apply.MCPServerName || gov.ServerState(s) != "not_allowed" {
					continue
				}
				out = append(out, fail(name+":"+a.Name+":"+level+":"+s.Name, label+" ("+a.Name+")",
					fmt.Sprintf("%s has the MCP server %q, which the policy's mcp.allowed does not list: %s still starts it", path, s.Name, a.Display),
					fmt.Sprintf("remove %q from %s, or ask the administrator to add it to mcp.allowed", s.Name, path)))
			}
		}
	}
	if full, err := r.plan(); err == nil {
		look(full, apply.LevelUser, "")
	}
	if r.project != nil {
		look(r.projectFull, apply.LevelProject, r.project.Dir)
	}
	if len(out) == 0 {
		msg := fmt.Sprintf("the %d MCP files charter manages hold only servers the policy's mcp.allowed lists", files)
		switch files {
		case 0:
			msg = "no MCP file charter manages exists yet, so no server outside the policy's mcp.allowed"
		case 1:
			msg = "the MCP file charter manages holds only servers the policy's mcp.allowed lists"
		}
		return []Check{ok(name, label, msg)}
	}
	return out
}

// nativeServerURLs are the servers of an agent's MCP file in format (the
// agent table's MCPFormat), by name, with their URL when remote. The error
// names the file's format ("JSON", "TOML").
func nativeServerURLs(format string, data []byte) ([]settings.Server, error) {
	var entries map[string]any
	if format == "codextoml" {
		doc, err := tomledit.Open(data)
		if err != nil {
			line := 0
			if pe, isParse := err.(*tomledit.ParseError); isParse {
				line = pe.Line
			}
			return nil, fmt.Errorf("TOML (line %d)", line)
		}
		entries, _ = doc.Lookup("mcp_servers").(map[string]any)
	} else {
		if agents.JSONC(format) {
			var err error
			if data, err = jsonedit.Blank(data, func(off int, msg string) error {
				line, _ := jsonedit.Position(data, off)
				return fmt.Errorf("JSON with comments (line %d: %s)", line, msg)
			}); err != nil {
				return nil, err
			}
		}
		var doc map[string]json.RawMessage
		if format == "continue" { // Continue's config.yaml: a list of servers
			var err error
			if doc, err = apply.ContinueDoc(data); err != nil {
				return nil, err
			}
		} else if format == "goose" { // Goose's config.yaml: extensions by name
			var err error
			if doc, err = apply.GooseDoc(data); err != nil {
				return nil, err
			}
		} else if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("JSON (%v)", err)
		}
		member := apply.MCPMembers(format)[0]
		if raw, present := doc[member]; present {
			if err := json.Unmarshal(raw, &entries); err != nil {
				return nil, fmt.Errorf("JSON (%s is not an object)", member)
			}
		}
	}
	names := make([]string, 0, len(entries))
	for n := range entries {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]settings.Server, 0, len(names))
	for _, n := range names {
		s := settings.Server{Name: n}
		if e, isMap := entries[n].(map[string]any); isMap {
			for _, k := range []string{"url", "httpUrl", "serverUrl"} {
				if u, isStr := e[k].(string); isStr && u != "" {
					s.URL = u
					break
				}
			}
		}
		out = append(out, s)
	}
	return out, nil
}
