package apply

// Codex: servers as [mcp_servers.NAME] tables in config.toml, edited with
// core/tomledit so every other key, table, comment and byte stays; shell
// rules as prefix_rule(...) lines in a rules file charter owns whole
// (rules/charter.rules, beside the user's own default.rules).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/tomledit"
)

// codexServer is s as the keys of its [mcp_servers.NAME] table, or why
// Codex cannot express it: Codex passes a variable to a stdio server only
// under its own name (env_vars), and to a remote one as a bearer token or
// a whole header value (bearer_token_env_var, env_http_headers).
func codexServer(s settings.Server) ([]tomledit.KV, string) {
	whole := func(v string) (string, bool) {
		m := envVar.Get().FindStringSubmatchIndex(v)
		if m == nil || m[0] != 0 || m[1] != len(v) {
			return "", false
		}
		return v[m[2]:m[3]], true
	}
	if s.Command != "" {
		kvs := []tomledit.KV{{Key: "command", Val: s.Command}}
		if len(s.Args) > 0 {
			kvs = append(kvs, tomledit.KV{Key: "args", Val: s.Args})
		}
		literal, vars := map[string]string{}, []string{}
		for _, k := range sortedKeys(s.Env) {
			v := s.Env[k]
			switch name, ok := whole(v); {
			case ok && name == k:
				vars = append(vars, k)
			case envVar.Get().MatchString(v):
				return nil, fmt.Sprintf("env %s = %q: Codex passes a variable only under its own name (write %s: \"${%s}\")", k, v, k, k)
			default:
				literal[k] = v
			}
		}
		if len(literal) > 0 {
			kvs = append(kvs, tomledit.KV{Key: "env", Val: literal})
		}
		if len(vars) > 0 {
			kvs = append(kvs, tomledit.KV{Key: "env_vars", Val: vars})
		}
		return kvs, ""
	}
	kvs := []tomledit.KV{{Key: "url", Val: s.URL}}
	literal, fromEnv := map[string]string{}, map[string]string{}
	for _, h := range sortedKeys(s.Headers) {
		v := s.Headers[h]
		if strings.EqualFold(h, "Authorization") && strings.HasPrefix(v, "Bearer ") {
			if name, ok := whole(strings.TrimPrefix(v, "Bearer ")); ok {
				kvs = append(kvs, tomledit.KV{Key: "bearer_token_env_var", Val: name})
				continue
			}
		}
		switch name, ok := whole(v); {
		case ok:
			fromEnv[h] = name
		case envVar.Get().MatchString(v):
			return nil, fmt.Sprintf("header %s = %q: Codex takes a variable only as a whole header value or as \"Bearer ${VAR}\"", h, v)
		default:
			literal[h] = v
		}
	}
	if len(literal) > 0 {
		kvs = append(kvs, tomledit.KV{Key: "http_headers", Val: literal})
	}
	if len(fromEnv) > 0 {
		kvs = append(kvs, tomledit.KV{Key: "env_http_headers", Val: fromEnv})
	}
	return kvs, ""
}

// codexRule is one shell rule as Codex's execpolicy writes it.
func codexRule(verdict, prefix string) string {
	decision := map[string]string{"deny": "forbidden", "ask": "prompt", "allow": "allow"}[verdict]
	words := strings.Fields(prefix)
	quoted := make([]string, len(words))
	for i, w := range words {
		q, _ := json.Marshal(w) // a Starlark string: JSON's escapes are Starlark's
		quoted[i] = string(q)
	}
	return fmt.Sprintf("prefix_rule(pattern = [%s], decision = %q)", strings.Join(quoted, ", "), decision)
}

// codexRules is the rules file for Codex's execpolicy, one prefix_rule a
// line; nil when there is none.
func codexRules(rules []string) []byte {
	if len(rules) == 0 {
		return nil
	}
	var b bytes.Buffer
	b.WriteString("# Written by charter from its permissions settings (charter permissions list).\n")
	b.WriteString("# Edit the settings, not this file: charter apply rewrites it.\n")
	for _, r := range rules {
		b.WriteString(r + "\n")
	}
	return b.Bytes()
}

// editRules writes the rules file when it is charter's: absent, as
// charter recorded it, or already what charter would write.
func (f *govFile) editRules(b *govBook, old []byte) []byte {
	rec, recorded := b.recorded(f.path, "file", "")
	mine := old == nil || bytes.Equal(old, f.rules) || (recorded && sumBytes(old) == rec.SHA256)
	if !mine && recorded && f.locked {
		// The policy's rules are locked: a hand edit of charter's file
		// cannot loosen them, so the file is put back.
		b.settle(f.path, []GovEntry{{Path: f.path, Agent: f.agent, Key: "file", SHA256: sumBytes(f.rules)}},
			[]GovKept{{Agent: f.agent, Level: f.level, Path: f.path, What: "rules file",
				Reason: "changed by hand, but it holds the policy's locked rules: restored (edit the settings, not this file)"}})
		return f.rules
	}
	if !mine {
		why := "not charter's: charter leaves it (remove it to let charter write its rules there)"
		if recorded {
			why = "changed by hand since charter wrote it: it is yours now, charter leaves it (remove it to let charter write it again)"
		}
		b.settle(f.path, nil, []GovKept{{Agent: f.agent, Level: f.level, Path: f.path, What: "rules file", Reason: why}})
		return old
	}
	var owned []GovEntry
	if f.rules != nil {
		owned = []GovEntry{{Path: f.path, Agent: f.agent, Key: "file", SHA256: sumBytes(f.rules)}}
	}
	b.settle(f.path, owned, nil)
	return f.rules
}

// editTOML edits Codex's config.toml: one table per server, and the
// sandbox's network_access line (govsandbox.go).
func (f *govFile) editTOML(b *govBook, orig []byte) ([]byte, error) {
	d, err := tomledit.Open(orig)
	if err != nil {
		return nil, err
	}
	old, sandbox, sandboxKept, err := f.editSandbox(b, d)
	if err != nil {
		return nil, err
	}
	if d, err = tomledit.Open(old); err != nil {
		return nil, fmt.Errorf("charter's edit would leave the file unreadable (%w)", err)
	}
	have := func(name string) (any, bool) {
		v := d.Lookup(append(slices.Clone(f.serverKeys), name)...)
		return v, v != nil
	}
	key := strings.Join(f.serverKeys, ".")
	o := f.owner(b, key, have)
	want := map[string]any{}
	var owned []GovEntry
	for _, name := range sortedKeys(f.servers) {
		if e, ok := o.take(name, tomlValue(f.servers[name].(string))); ok {
			want[name] = f.servers[name]
			owned = append(owned, e)
		}
	}
	drop := o.gone(f.servers)
	data := old
	for _, name := range drop {
		if start, end, ok := d.Block(append(slices.Clone(f.serverKeys), name)...); ok {
			data = d.Remove(start, end)
			if d, err = tomledit.Open(data); err != nil {
				return nil, err
			}
		}
	}
	for _, name := range sortedKeys(want) {
		text := want[name].(string)
		cur, present := have(name)
		switch start, end, ok := d.Block(append(slices.Clone(f.serverKeys), name)...); {
		case present && sumJSON(cur) == sumJSON(tomlValue(text)):
			continue
		case ok:
			data = d.Replace(start, end, text)
		case present: // written inline or as dotted keys: not a table charter can swap
			o.keep(name, "written in a form charter does not edit (an inline table or dotted keys): left as it is")
			owned = slices.DeleteFunc(owned, func(e GovEntry) bool { return e.Entry == name })
			continue
		default:
			data = d.Append(text)
		}
		if d, err = tomledit.Open(data); err != nil {
			return nil, fmt.Errorf("charter's edit would leave the file unreadable (%w)", err)
		}
	}
	b.settle(f.path, append(owned, sandbox...), append(o.kept, sandboxKept...))
	if len(bytes.TrimSpace(data)) == 0 && !bytes.Equal(orig, data) {
		return nil, nil // charter's tables were all the file held
	}
	return data, nil
}

// tomlValue is the table text's value under its header, as the parser
// reads it: what charter compares with the file's.
func tomlValue(text string) any {
	d, err := tomledit.Open([]byte(text))
	if err != nil {
		return nil
	}
	for _, v := range d.Values { // mcp_servers
		for _, s := range v.(map[string]any) {
			return s
		}
	}
	return nil
}
