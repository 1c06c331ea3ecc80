package session

// The permissions and MCP servers part of `charter import` (SPEC §14):
// what the agent's native files hold, in charter's grammar, written into
// the layer import writes (the scope's file, or the project's with
// --project). A rule already in force, one that would loosen the policy
// and a server already declared are reported and left out.

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/importer"
	"github.com/agentkit/charter/core/settings"
)

// importGovernance reads and, unless dryRun, writes the permissions and
// servers of the agent ireq names. A peer tool's folder has none.
func (s *Session) importGovernance(ctx context.Context, ireq importer.Request, project, dryRun bool) ([]importer.GovItem, error) {
	a, ok := s.Sys.AgentTable.Lookup(ireq.From)
	if !ok || importer.Peer(ireq.From) || ireq.Base == "" {
		return nil, nil
	}
	files, err := importer.GovFiles(s.Sys, a, ireq.Level, ireq.Base, ireq.Within, apply.MCPPath(s.Sys, a, ireq.Level, ireq.Base))
	if err != nil {
		return nil, err
	}
	items, err := importer.ReadGovernance(files)
	if err != nil || len(items) == 0 {
		return items, err
	}
	st, err := s.Store()
	if err != nil {
		return nil, err
	}
	snap, err := s.ApplySettings(ctx, project)
	if err != nil {
		return nil, err
	}
	layer := settings.LayerScope
	if project {
		layer = settings.LayerProject
	}
	t, err := s.Target(layer)
	if err != nil {
		return nil, err
	}
	add := judge(items, snap.Gov, st.Policy())
	if dryRun || (len(add.rules) == 0 && len(add.servers) == 0) {
		return items, nil
	}
	if len(add.rules) > 0 {
		set := map[string]any{}
		for _, v := range []string{"deny", "ask", "allow"} {
			if len(add.rules[v]) == 0 {
				continue
			}
			var have []string // the target file's own list, refused entries kept
			for _, e := range append(slices.Clone(snap.Gov.Permissions), snap.Gov.Refused...) {
				if e.Verdict == v && e.Origin == t.Path() {
					have = append(have, e.Rule)
				}
			}
			set[settings.VerdictKey(v)] = append(have, add.rules[v]...)
		}
		if _, err := t.Write(settings.Update{Set: set}); err != nil {
			return items, err
		}
	}
	if len(add.servers) > 0 {
		if err := s.writeServers(t, add.servers); err != nil {
			return items, err
		}
	}
	return items, nil
}

// additions are what an import writes.
type additions struct {
	rules   map[string][]string // by verdict
	servers []settings.Server
}

// judge decides each imported item against what is in force and the
// policy, marking the ones left out, and returns what to write.
func judge(items []importer.GovItem, g *settings.Governance, p *settings.Policy) additions {
	add := additions{rules: map[string][]string{}}
	seen := map[string]bool{}
	for i := range items {
		it := &items[i]
		if it.State != importer.StateImported {
			continue
		}
		if it.What == importer.WhatServer {
			for _, sv := range g.Servers {
				if sv.Name == it.Server {
					it.State, it.Reason = importer.StateClash, fmt.Sprintf("%s declares a server %s already: kept as it is", sv.Origin, sv.Name)
				}
			}
			if it.State == importer.StateImported && !seen["server/"+it.Server] {
				seen["server/"+it.Server] = true
				add.servers = append(add.servers, *it.Def)
			}
			continue
		}
		key := it.Verdict + " " + it.Rule
		for _, e := range g.Permissions {
			if e.Verdict == it.Verdict && e.Rule == it.Rule {
				it.State, it.Reason = importer.StateClash, fmt.Sprintf("in force already (%s layer, %s)", e.Layer, e.Origin)
			}
		}
		if it.State == importer.StateImported {
			if why := loosens(p, it.Verdict, it.Rule); why != "" {
				it.State, it.Reason = importer.StateSkipped, why
			}
		}
		if it.State == importer.StateImported && !seen[key] {
			seen[key] = true
			add.rules[it.Verdict] = append(add.rules[it.Verdict], it.Rule)
		}
	}
	return add
}

// loosens says why a rule would loosen the policy (locked_by_policy), or "".
func loosens(p *settings.Policy, verdict, rule string) string {
	against := map[string][]string{"ask": {"deny"}, "allow": {"deny", "ask"}}[verdict]
	r, err := settings.ParseRule(rule)
	if p == nil || err != nil {
		return ""
	}
	for _, v := range against {
		for _, ps := range p.PolicyRules(v) {
			if pr, err := settings.ParseRule(ps); err == nil && pr.Overlaps(r) {
				return fmt.Sprintf("locked by policy: %s says %s %s; this %s would loosen it, so it is not imported", p.Path, v, ps, verdict)
			}
		}
	}
	return ""
}

// writeServers adds servers under mcp.servers of t's file. A file with
// no mcp key gets the block appended, every other byte kept; otherwise
// the YAML tree is edited (comments kept, layout normalised).
func (s *Session) writeServers(t *Target, servers []settings.Server) error {
	orig, err := s.Sys.ReadFile(t.Path(), fsys.KindSettings)
	if fsys.IsAbsent(err) {
		orig = nil
	} else if err != nil {
		return fsys.ReadError(t.Path(), err)
	}
	block := map[string]any{}
	for _, sv := range servers {
		block[sv.Name] = serverYAML(sv)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(orig, &doc); err != nil {
		return core.Errorf(core.CodeMalformedSettings, "%s is not valid YAML (%v): fix it and import again", t.Path(), err)
	}
	var body []byte
	if len(doc.Content) == 0 || serversParent(doc.Content[0]) == nil {
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(map[string]any{"mcp": map[string]any{"servers": block}}); err != nil {
			return err
		}
		body = append(slices.Clone(orig), []byte("# Imported by charter import.\n")...)
		if len(orig) > 0 && orig[len(orig)-1] != '\n' {
			body = append(slices.Clone(orig), []byte("\n# Imported by charter import.\n")...)
		}
		body = append(body, b.Bytes()...)
	} else {
		srv := child(doc.Content[0], settings.KeyMCPServers) // written as a dotted key
		if srv == nil {
			mcp := asMapping(serversParent(doc.Content[0]))
			if srv = child(mcp, "servers"); srv == nil {
				srv = &yaml.Node{Kind: yaml.MappingNode}
				mcp.Content = append(mcp.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "servers"}, srv)
			}
		}
		asMapping(srv)
		for _, sv := range servers {
			var n yaml.Node
			if err := n.Encode(serverYAML(sv)); err != nil {
				return err
			}
			srv.Content = append(srv.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: sv.Name}, &n)
		}
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(&doc); err != nil {
			return err
		}
		body = b.Bytes()
	}
	return t.Replace(orig, body, false)
}

// serversParent is the top-level mcp mapping (or the dotted mcp.servers
// key's value), nil when the file has neither.
func serversParent(root *yaml.Node) *yaml.Node {
	if n := child(root, settings.KeyMCPServers); n != nil {
		return n
	}
	if n := child(root, "mcp"); n != nil && (n.Kind == yaml.MappingNode || n.Tag == "!!null") {
		return n
	}
	return nil
}

// asMapping makes an empty value (`mcp:` alone) a mapping to add to.
func asMapping(n *yaml.Node) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		n.Kind, n.Tag, n.Value, n.Style = yaml.MappingNode, "!!map", "", 0
	}
	return n
}

func child(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// serverYAML is a server as a settings file writes it.
func serverYAML(sv settings.Server) map[string]any {
	out := map[string]any{}
	if sv.Command != "" {
		out["command"] = sv.Command
	}
	if len(sv.Args) > 0 {
		out["args"] = sv.Args
	}
	if len(sv.Env) > 0 {
		out["env"] = sv.Env
	}
	if sv.URL != "" {
		out["url"] = sv.URL
	}
	if len(sv.Headers) > 0 {
		out["headers"] = sv.Headers
	}
	return out
}
