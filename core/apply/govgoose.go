package apply

// Goose's MCP servers (SPEC §14, §17): extensions in ~/.config/goose/
// config.yaml, a mapping of extension entries by name (Goose's
// ExtensionConfig: type stdio with cmd, args, envs, env_keys, or
// streamable_http with uri and headers; enabled, timeout). Each of
// charter's is one block mapping spliced in line by line, so every other
// byte of the file stays.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/settings"
)

// gooseEnvWhy: Goose passes envs and headers as written; env_keys takes
// a variable by its own name.
const gooseEnvWhy = "Goose passes an extension's envs and headers values as written, with no ${VAR} expansion; it takes a variable from the environment only under its own name (env_keys), so only env NAME: \"${NAME}\" can be written: add the server to Goose yourself"

// gooseKeys is the order charter writes an extension's keys in.
var gooseKeys = []string{"name", "type", "cmd", "args", "uri", "headers", "envs", "env_keys", "enabled", "timeout", "description"}

// gooseServer is s as a Goose extension entry: NAME: ${NAME} becomes
// env_keys [NAME]; any other ${VAR} cannot be written.
func gooseServer(s settings.Server) (v any, why string, ok bool) {
	envs, keys := map[string]string{}, []string{}
	for _, k := range sortedKeys(s.Env) {
		val := s.Env[k]
		switch {
		case val == "${"+k+"}":
			keys = append(keys, k)
		case envVar.Get().MatchString(val):
			return nil, gooseEnvWhy, true
		default:
			envs[k] = val
		}
	}
	out := map[string]any{"name": s.Name, "envs": envs, "env_keys": keys, "enabled": true, "timeout": 300, "description": ""}
	if s.Command != "" {
		out["type"], out["cmd"], out["args"] = "stdio", s.Command, orEmpty(s.Args)
		return out, "", true
	}
	for _, val := range s.Headers {
		if envVar.Get().MatchString(val) {
			return nil, gooseEnvWhy, true
		}
	}
	out["type"], out["uri"] = "streamable_http", s.URL
	if len(s.Headers) > 0 {
		out["headers"] = s.Headers
	}
	return out, "", true
}

// gooseText is entry v as block lines under a key at indent, its keys
// one step deeper (the file's own step).
func gooseText(name string, v any, indent, step string) string {
	m, _ := v.(map[string]any)
	var b strings.Builder
	b.WriteString(indent + yamlKey(name) + ":\n")
	for _, k := range gooseKeys {
		if val, ok := m[k]; ok {
			b.WriteString(indent + step + k + ": " + yamlText(val) + "\n")
		}
	}
	return b.String()
}

var plainKey = lazy.Regexp{Expr: `^[A-Za-z0-9_][A-Za-z0-9_.-]*$`}

func yamlKey(s string) string {
	if plainKey.Get().MatchString(s) {
		return s
	}
	return yamlText(s)
}

// extensions is the extensions mapping: key node (nil when absent) and
// value; an error for a shape charter cannot edit line by line.
func (d *yamlDoc) extensions() (k, v *yaml.Node, err error) {
	if d.top == nil {
		return nil, nil, nil
	}
	for i := 0; i+1 < len(d.top.Content); i += 2 {
		if d.top.Content[i].Value != "extensions" {
			continue
		}
		k, v = d.top.Content[i], d.top.Content[i+1]
		switch {
		case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
			return k, v, nil
		case v.Kind != yaml.MappingNode:
			return nil, nil, &MCPJSONError{Line: v.Line, Msg: "extensions is not a mapping of extensions by name"}
		case v.Style&yaml.FlowStyle != 0:
			return nil, nil, &MCPJSONError{Line: v.Line, Msg: "extensions is written { … } on one line: write it as an indented block, one extension a key"}
		case hasAnchor(v):
			return nil, nil, &MCPJSONError{Line: v.Line, Msg: "extensions uses YAML anchors or aliases (& or *), which charter cannot edit safely: write the entries out"}
		}
		for l := k.Line; l <= d.entryEnd(k, len(d.lines)); l++ {
			if strings.Contains(d.lines[l-1], "\t") {
				return nil, nil, &MCPJSONError{Line: l, Msg: "extensions holds a tab, which charter cannot indent around: use spaces"}
			}
		}
		return k, v, nil
	}
	return nil, nil, nil
}

func hasAnchor(n *yaml.Node) bool {
	if n.Anchor != "" || n.Kind == yaml.AliasNode {
		return true
	}
	return slices.ContainsFunc(n.Content, hasAnchor)
}

// entryEnd is the last line (1-based) of the block at key k: every later
// line indented deeper than k, blank lines inside included.
func (d *yamlDoc) entryEnd(k *yaml.Node, limit int) int {
	end := k.Line
	for l := k.Line + 1; l <= limit && l <= len(d.lines); l++ {
		line := d.lines[l-1]
		body := strings.TrimLeft(line, " \t")
		if strings.TrimSpace(body) == "" {
			continue
		}
		if len(line)-len(body) < k.Column {
			break
		}
		end = l
	}
	return end
}

// gooseStep keeps each of want (entries by name) under extensions and
// takes out every name in drop. made: charter made the key, which goes
// with its last entry.
func gooseStep(want map[string]any, order, drop []string, made bool) yamlStep {
	return func(d *yamlDoc) ([]byte, error) {
		k, v, err := d.extensions()
		if err != nil {
			return nil, err
		}
		var names []*yaml.Node
		if v != nil && v.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(v.Content); i += 2 {
				names = append(names, v.Content[i])
			}
		}
		for i, n := range names {
			_, wanted := want[n.Value]
			if !slices.Contains(drop, n.Value) && !wanted {
				continue
			}
			val := v.Content[2*i+1]
			if wanted && sumJSON(gooseNorm(decoded(val))) == sumJSON(want[n.Value]) {
				continue
			}
			end := d.entryEnd(n, len(d.lines))
			if !wanted {
				if made && len(names) == 1 && k.Line == n.Line-1 {
					return d.spliceEOL(k.Line-1, end, ""), nil
				}
				return d.spliceEOL(n.Line-1, end, ""), nil
			}
			indent := d.lines[n.Line-1][:n.Column-1]
			return d.spliceEOL(n.Line-1, end, gooseText(n.Value, want[n.Value], indent, indent[k.Column-1:])), nil
		}
		for _, name := range order {
			if slices.ContainsFunc(names, func(n *yaml.Node) bool { return n.Value == name }) {
				continue
			}
			switch {
			case k == nil:
				return d.spliceEOL(len(d.lines), len(d.lines), "extensions:\n"+gooseText(name, want[name], "  ", "  ")), nil
			case len(names) == 0:
				if strings.TrimSpace(strings.SplitN(d.lines[k.Line-1], "#", 2)[0]) != "extensions:" {
					return nil, &MCPJSONError{Line: k.Line, Msg: "extensions has a value on its own line charter cannot add to: write it as an indented block"}
				}
				return d.spliceEOL(k.Line, k.Line, gooseText(name, want[name], strings.Repeat(" ", k.Column-1)+"  ", "  ")), nil
			}
			first := names[0]
			indent := d.lines[first.Line-1][:first.Column-1]
			return d.splice(first.Line-1, first.Line-1, gooseText(name, want[name], indent, indent[k.Column-1:])), nil
		}
		return nil, nil
	}
}

// spliceEOL is splice that keeps a file without a final newline without
// one: text added at such an end drops its own, and lines taken from it
// take the newline before them along.
func (d *yamlDoc) spliceEOL(from, to int, text string) []byte {
	last := d.lines[len(d.lines)-1]
	if last == "" || to < len(d.lines) {
		return d.splice(from, to, text)
	}
	if from == to { // added at the end
		return d.splice(from, to, strings.TrimSuffix(text, "\n"))
	}
	out := d.splice(from, to, text)
	if len(out) > 0 && out[len(out)-1] == '\n' {
		out = out[:len(out)-1]
	}
	return out
}

// gooseServers plans the extensions edit as editYAML's server part.
func (f *govFile) gooseServers(b *govBook, d *yamlDoc) (yamlStep, []GovEntry, []GovKept, error) {
	key := f.serverKeys[0]
	_, v, err := d.extensions()
	if err != nil {
		return nil, nil, nil, err
	}
	byName := map[string]*yaml.Node{}
	if v != nil && v.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(v.Content); i += 2 {
			byName[v.Content[i].Value] = v.Content[i+1]
		}
	}
	o := f.owner(b, key, func(name string) (any, bool) {
		n, ok := byName[name]
		if !ok {
			return nil, false
		}
		return gooseNorm(decoded(n)), true
	})
	var owned []GovEntry
	want := map[string]any{}
	var order []string
	for _, name := range sortedKeys(f.servers) {
		if e, ok := o.take(name, f.servers[name]); ok {
			want[name], order = f.servers[name], append(order, name)
			owned = append(owned, e)
		}
	}
	drop := o.gone(f.servers)
	made := f.yamlMade(b, key, v == nil && len(want) > 0)
	if made && len(want) > 0 {
		owned = append(owned, GovEntry{Path: f.path, Agent: f.agent, Key: key, Made: 1})
	}
	return gooseStep(want, order, drop, made), owned, o.kept, nil
}

// gooseNorm is an extension entry without the defaults Goose itself adds
// when it saves config.yaml (bundled: null, available_tools: []), so an
// entry of charter's that Goose rewrote is still charter's.
func gooseNorm(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, val := range m {
		if l, isList := val.([]any); (k == "bundled" && (val == nil || val == false)) || (k == "available_tools" && (val == nil || isList && len(l) == 0)) {
			continue
		}
		out[k] = val
	}
	return out
}

// GooseDoc is Goose's config.yaml as JSON members, for import and doctor:
// its extensions that are MCP servers (stdio, sse, streamable_http) in the
// shared shape under "extensions" (cmd as command, uri as url, env_keys
// as env NAME: ${NAME}).
func GooseDoc(data []byte) (map[string]json.RawMessage, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("YAML (%s)", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	exts, _ := doc["extensions"].(map[string]any)
	if m, ok := doc["extensions"].(map[any]any); ok { // a name YAML reads as a number
		exts = map[string]any{}
		for k, v := range m {
			exts[fmt.Sprint(k)] = v
		}
	}
	servers := map[string]any{}
	for name, e := range exts {
		m, _ := e.(map[string]any)
		typ, _ := m["type"].(string)
		if typ != "stdio" && typ != "sse" && typ != "streamable_http" {
			continue // Goose's own builtin and platform extensions
		}
		s := map[string]any{}
		env := map[string]any{}
		if envs, ok := m["envs"].(map[string]any); ok {
			for k, val := range envs {
				env[k] = val
			}
		}
		if keys, ok := m["env_keys"].([]any); ok {
			for _, k := range keys {
				if ks, ok := k.(string); ok {
					env[ks] = "${" + ks + "}"
				}
			}
		}
		if len(env) > 0 {
			s["env"] = env
		}
		if typ == "stdio" {
			s["command"], s["args"] = m["cmd"], m["args"]
		} else {
			s["url"] = m["uri"]
			if h, ok := m["headers"]; ok && h != nil {
				s["headers"] = h
			}
		}
		servers[name] = s
	}
	b, err := json.Marshal(map[string]any{"extensions": servers})
	if err != nil {
		return nil, fmt.Errorf("YAML (%v)", err)
	}
	out := map[string]json.RawMessage{}
	return out, json.Unmarshal(b, &out)
}
