package apply

// Cline's and Continue's permission and server shapes (SPEC §14, §17),
// read from the agents themselves (Cline CLI 3.0.65, Continue's cn 1.5.47).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/settings"
)

// continueRule is r in Continue's ~/.continue/permissions.yaml: lists
// exclude, ask and allow of tool patterns, first match wins, exclude
// first. Bash(P*) matches a command starting with P: a deny or ask
// covers the rule (and longer words, the safe side); an allow is the one
// command, Bash(P), so it never lets more run than the rule says.
func continueRule(verdict string, r settings.Rule) ([]string, string, bool) {
	if r.Kind != settings.RuleShell {
		return nil, "", false
	}
	switch verdict {
	case "deny":
		return []string{"exclude"}, "Bash(" + r.Arg + "*)", true
	case "ask":
		return []string{"ask"}, "Bash(" + r.Arg + "*)", true
	}
	return []string{"allow"}, "Bash(" + r.Arg + ")", true
}

// clineEnvWhy: Cline passes a server's env and headers as written.
const clineEnvWhy = "Cline passes an MCP server's env and headers values as written, with no ${VAR} reference (a stdio server inherits Cline's environment, so only env NAME: \"${NAME}\" can be written, by leaving it out), and charter never copies a secret: add the server to Cline yourself"

// continueNoConfig: without a config.yaml of the user's, cn loads their
// Continue Hub assistant; a file charter made would replace it.
const continueNoConfig = "there is no config.yaml: cn then loads your Continue Hub assistant, and a file charter made would take its place; charter adds servers only to a config.yaml you made (create one with your model, then apply again)"

// agentServer is s in Cline's or Continue's shape; ok false for another
// format, why set when the format cannot hold s.
//   - "cline" (data/settings/cline_mcp_settings.json): mcpServers,
//     type "stdio" or "streamableHttp", values as written (no ${VAR}).
//   - "continue" (config.yaml): a list of servers, each with its name;
//     ${VAR} is written ${{ secrets.VAR }}, which cn reads from the
//     environment; a remote server is type "streamable-http" with its
//     headers under requestOptions.
func agentServer(format string, s settings.Server) (v any, why string, ok bool) {
	switch format {
	case "cline":
		// Cline starts a stdio server with its own environment plus env
		// as written: NAME: "${NAME}" is inherited, so it is left out.
		env := map[string]string{}
		for k, val := range s.Env {
			if val == "${"+k+"}" {
				continue
			}
			if envVar.Get().MatchString(val) {
				return nil, clineEnvWhy, true
			}
			env[k] = val
		}
		for _, val := range s.Headers {
			if envVar.Get().MatchString(val) {
				return nil, clineEnvWhy, true
			}
		}
		if s.Command != "" {
			out := map[string]any{"type": "stdio", "command": s.Command, "args": orEmpty(s.Args)}
			if len(env) > 0 {
				out["env"] = env
			}
			return out, "", true
		}
		out := map[string]any{"type": "streamableHttp", "url": s.URL}
		if len(s.Headers) > 0 {
			out["headers"] = s.Headers
		}
		return out, "", true
	case "goose":
		return gooseServer(s)
	case "continue":
		ref := func(m map[string]string) map[string]string {
			out := map[string]string{}
			for k, val := range m {
				out[k] = envVar.Get().ReplaceAllString(val, "$${{ secrets.$1 }}")
			}
			return out
		}
		if s.Command != "" {
			out := map[string]any{"name": s.Name, "command": s.Command, "args": orEmpty(s.Args)}
			if len(s.Env) > 0 {
				out["env"] = ref(s.Env)
			}
			return out, "", true
		}
		out := map[string]any{"name": s.Name, "type": "streamable-http", "url": s.URL}
		if len(s.Headers) > 0 {
			out["requestOptions"] = map[string]any{"headers": ref(s.Headers)}
		}
		return out, "", true
	}
	return nil, "", false
}

func orEmpty(args []string) []string {
	if args == nil {
		return []string{}
	}
	return args
}

// editYAML edits a YAML file (Continue): each list, then the servers,
// with the record deciding what is charter's as in editJSON.
func (f *govFile) editYAML(b *govBook, old []byte) ([]byte, error) {
	d, err := openYAML(old)
	if err != nil {
		return nil, err
	}
	scalar := func(n *yaml.Node) string {
		if n.Kind == yaml.ScalarNode {
			return n.Value
		}
		return "\x00"
	}
	var owned []GovEntry
	var kept []GovKept
	var steps []yamlStep
	for _, l := range f.allLists(b) {
		key := strings.Join(l.keys, ".")
		_, v, err := d.seq(key)
		if err != nil {
			return nil, err
		}
		var have []string
		if v != nil {
			for _, it := range v.Content {
				have = append(have, scalar(it))
			}
		}
		drop := slices.Clone(l.drop)
		for _, e := range b.prev[f.path] {
			if e.Key == key && e.Entry != "" && !slices.Contains(l.want, e.Entry) {
				drop = append(drop, e.Entry)
			}
		}
		want := map[string]string{}
		for _, w := range l.want {
			want[w] = yamlText(w)
			if _, ok := b.recorded(f.path, key, w); ok || !slices.Contains(have, w) {
				owned = append(owned, GovEntry{Path: f.path, Agent: f.agent, Key: key, Entry: w})
			}
		}
		made := f.yamlMade(b, key, v == nil && len(l.want) > 0)
		if made && len(l.want) > 0 {
			owned = append(owned, GovEntry{Path: f.path, Agent: f.agent, Key: key, Made: 1})
		}
		steps = append(steps, yamlSeqStep(key, want, l.want, drop, scalar, made))
	}
	if f.serverKeys != nil && f.serverKeys[0] == "extensions" { // Goose
		step, own, keep, err := f.gooseServers(b, d)
		if err != nil {
			return nil, err
		}
		owned, kept, steps = append(owned, own...), append(kept, keep...), append(steps, step)
	} else if f.serverKeys != nil && len(bytes.TrimSpace(old)) == 0 && len(f.servers) > 0 {
		for _, name := range sortedKeys(f.servers) {
			kept = append(kept, GovKept{Agent: f.agent, Level: f.level, Path: f.path, What: "server " + name, Reason: continueNoConfig})
		}
	} else if f.serverKeys != nil {
		key := f.serverKeys[0]
		_, v, err := d.seq(key)
		if err != nil {
			return nil, err
		}
		byName := map[string]*yaml.Node{}
		if v != nil {
			for _, it := range v.Content {
				byName[serverName(it)] = it
			}
		}
		o := f.owner(b, key, func(name string) (any, bool) {
			it, ok := byName[name]
			if !ok {
				return nil, false
			}
			return decoded(it), true
		})
		want := map[string]string{}
		var order []string
		for _, name := range sortedKeys(f.servers) {
			if e, ok := o.take(name, f.servers[name]); ok {
				want[name], order = yamlText(f.servers[name]), append(order, name)
				owned = append(owned, e)
			}
		}
		drop := o.gone(f.servers)
		kept = append(kept, o.kept...)
		made := f.yamlMade(b, key, v == nil && len(want) > 0)
		if made && len(want) > 0 {
			owned = append(owned, GovEntry{Path: f.path, Agent: f.agent, Key: key, Made: 1})
		}
		steps = append(steps, yamlSeqStep(key, want, order, drop, serverName, made))
	}
	data := old
	for _, s := range steps {
		if data, err = editYAML(data, s); err != nil {
			return nil, err
		}
	}
	b.settle(f.path, owned, kept)
	if len(bytes.TrimSpace(data)) == 0 && (len(bytes.TrimSpace(old)) == 0 || len(b.prev[f.path]) > 0) {
		return nil, nil // nothing of the user's: no file
	}
	return data, nil
}

// yamlMade reports whether charter made the list at key: as recorded,
// or about to add it now.
func (f *govFile) yamlMade(b *govBook, key string, adding bool) bool {
	for _, e := range b.prev[f.path] {
		if e.Key == key && e.Entry == "" && e.Made > 0 {
			return true
		}
	}
	return adding
}

// serverName is a Continue server item's name.
func serverName(n *yaml.Node) string {
	if n.Kind != yaml.MappingNode {
		return "\x00"
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "name" {
			return n.Content[i+1].Value
		}
	}
	return "\x00"
}

// ContinueDoc is a Continue YAML file (permissions.yaml, config.yaml) as
// JSON members, for import and doctor: its mcpServers list becomes an
// object of servers by name, each in the shared shape (${{ secrets.VAR }}
// as ${VAR}, requestOptions.headers as headers, no name field).
func ContinueDoc(data []byte) (map[string]json.RawMessage, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("YAML (%s)", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if list, ok := doc["mcpServers"].([]any); ok {
		servers := map[string]any{}
		for _, e := range list {
			m, ok := e.(map[string]any)
			name, _ := m["name"].(string)
			if !ok || name == "" {
				continue
			}
			delete(m, "name")
			if ro, ok := m["requestOptions"].(map[string]any); ok && ro["headers"] != nil {
				m["headers"] = ro["headers"]
				delete(ro, "headers")
				if len(ro) == 0 {
					delete(m, "requestOptions")
				}
			}
			servers[name] = m
		}
		doc["mcpServers"] = servers
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("YAML (%v)", err)
	}
	b = continueSecret.Get().ReplaceAll(b, []byte("$${$1}"))
	out := map[string]json.RawMessage{}
	return out, json.Unmarshal(b, &out)
}

var continueSecret = lazy.Regexp{Expr: `\$\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`}
