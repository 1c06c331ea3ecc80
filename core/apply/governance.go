package apply

// Projecting permissions and MCP servers (SPEC §14) into the places the
// agent table names: each becomes one more edit of an agent JSON file,
// merged into the target that already edits that file (Claude's
// settings.json holds the Stop hook too).

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/settings"
)

// GovUnsupported is a rule or server an agent has no way to express.
type GovUnsupported struct {
	Agent  string `json:"agent"`
	Level  string `json:"level"`
	What   string `json:"what"` // "deny shell:…" or "server NAME"
	Reason string `json:"reason"`
}

// NativeRule is rule as the agent's format writes it, and the list it
// goes in; ok false when the format cannot express it.
func NativeRule(format, verdict string, r settings.Rule) (list []string, entry string, ok bool) {
	switch format {
	case "claude":
		list = []string{"permissions", verdict}
		switch r.Kind {
		case settings.RuleShell:
			return list, "Bash(" + r.Arg + ":*)", true
		case settings.RuleRead:
			return list, "Read(" + r.Arg + ")", true
		case settings.RuleWrite:
			return list, "Edit(" + r.Arg + ")", true
		case settings.RuleWeb:
			return list, "WebFetch(domain:" + r.Arg + ")", true
		case settings.RuleMCP:
			return list, "mcp__" + strings.ReplaceAll(r.Arg, "/", "__"), true
		}
	case "gemini":
		// tools.exclude and tools.allowed take a shell command prefix as
		// run_shell_command(PREFIX); Gemini has no ask list.
		if r.Kind != settings.RuleShell || verdict == "ask" {
			return nil, "", false
		}
		list = []string{"tools", "exclude"}
		if verdict == "allow" {
			list = []string{"tools", "allowed"}
		}
		return list, "run_shell_command(" + r.Arg + ")", true
	}
	return nil, "", false
}

var envVar = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// NativeServer is s in the shape of format; ${VAR} stays a reference in
// the agent's own spelling (Cursor and VS Code: ${env:VAR}).
func NativeServer(format string, s settings.Server) any {
	ref := func(m map[string]string) map[string]string {
		if len(m) == 0 {
			return nil
		}
		out := make(map[string]string, len(m))
		for k, v := range m {
			if format == "cursor" || format == "vscode" {
				v = envVar.ReplaceAllString(v, "$${env:$1}")
			}
			out[k] = v
		}
		return out
	}
	args := s.Args
	if args == nil {
		args = []string{}
	}
	type stdio struct {
		Type    string            `json:"type,omitempty"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env,omitempty"`
	}
	type remote struct {
		Type    string            `json:"type,omitempty"`
		URL     string            `json:"url,omitempty"`
		HTTPURL string            `json:"httpUrl,omitempty"`
		Headers map[string]string `json:"headers,omitempty"`
	}
	typ := "stdio"
	if format == "gemini" || format == "cursor" {
		typ = ""
	}
	if s.Command != "" {
		return stdio{Type: typ, Command: s.Command, Args: args, Env: ref(s.Env)}
	}
	if format == "gemini" {
		return remote{HTTPURL: s.URL, Headers: ref(s.Headers)}
	}
	if typ != "" {
		typ = "http"
	}
	return remote{Type: typ, URL: s.URL, Headers: ref(s.Headers)}
}

// mcpMembers is where a format keeps its servers.
func mcpMembers(format string) []string {
	if format == "vscode" {
		return []string{"servers"}
	}
	return []string{"mcpServers"}
}

// govEdits plans the permission and server edits for the selected agents
// at level; base is the agent's directory (user) or the project root.
func govEdits(sys *core.System, snap *settings.Snapshot, level string, sel []core.Agent, base func(core.Agent) (string, error)) (map[string][]jsonStep, map[string]string, []GovUnsupported, error) {
	g := snap.Gov
	steps, owner := map[string][]jsonStep{}, map[string]string{}
	var gaps []GovUnsupported
	if g == nil {
		return steps, owner, nil, nil
	}
	servers, err := projectedServers(sys, snap)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, a := range sel {
		pl := a.At(level)
		dir, err := base(a)
		if err != nil {
			return nil, nil, nil, err
		}
		if pl.PermFormat != "" {
			path := sys.Paths.Join(dir, pl.Permissions)
			lists := map[string][]string{}
			var listKeys [][]string
			drop := map[string][]string{}
			for _, e := range g.Permissions {
				r, err := settings.ParseRule(e.Rule)
				if err != nil {
					continue
				}
				keys, entry, ok := NativeRule(pl.PermFormat, e.Verdict, r)
				if !ok {
					gaps = append(gaps, GovUnsupported{a.Name, level, e.Verdict + " " + e.Rule, a.Display + " has no place for this rule"})
					continue
				}
				k := strings.Join(keys, ".")
				if _, seen := lists[k]; !seen {
					listKeys = append(listKeys, keys)
				}
				lists[k] = append(lists[k], entry)
				if e.Locked && e.Verdict == "deny" {
					// A native allow or ask of a denied rule, put there by
					// hand, is taken out: the lock holds in the file too.
					for _, v := range []string{"ask", "allow"} {
						if ks, ent, ok := NativeRule(pl.PermFormat, v, r); ok && strings.Join(ks, ".") != k {
							drop[strings.Join(ks, ".")] = append(drop[strings.Join(ks, ".")], ent)
						}
					}
				}
			}
			for k := range drop {
				if _, ok := lists[k]; !ok {
					listKeys = append(listKeys, strings.Split(k, "."))
					lists[k] = nil
				}
			}
			slices.SortFunc(listKeys, func(x, y []string) int { return strings.Compare(strings.Join(x, "."), strings.Join(y, ".")) })
			for _, keys := range listKeys {
				k := strings.Join(keys, ".")
				steps[path] = append(steps[path], listStep(keys, lists[k], drop[k]))
			}
			owner[path] = a.Name
		} else {
			for _, e := range g.Rules("deny") {
				gaps = append(gaps, GovUnsupported{a.Name, level, "deny " + e.Rule, "charter has no place for " + a.Display + "'s permissions yet"})
			}
		}
		if len(servers) == 0 {
			continue
		}
		if pl.MCPFormat == "" {
			for _, s := range servers {
				gaps = append(gaps, GovUnsupported{a.Name, level, "server " + s.Name, "charter has no place for " + a.Display + "'s MCP servers at " + level + " level yet"})
			}
			continue
		}
		path := sys.Paths.Join(dir, pl.MCP)
		want := map[string]any{}
		for _, s := range servers {
			want[s.Name] = NativeServer(pl.MCPFormat, s)
		}
		steps[path] = append(steps[path], membersStep(mcpMembers(pl.MCPFormat), want, nil))
		owner[path] = a.Name
	}
	return steps, owner, gaps, nil
}

// Why a server is not projected (ServerStates).
const (
	ServerDisabled   = "disabled"    // named in mcp.disabled
	ServerNotAllowed = "not_allowed" // outside the policy's mcp.allowed
	ServerUntrusted  = "untrusted"   // from the project layers of an untrusted project
)

// ServerStates says for each of snap.Gov.Servers why it is not projected,
// "" when it is: the one reading of disabled, allowed and trust that apply
// and `charter mcp-servers list` share.
func ServerStates(sys *core.System, snap *settings.Snapshot) ([]string, error) {
	if snap.Gov == nil {
		return nil, nil
	}
	out := make([]string, len(snap.Gov.Servers))
	var trusted *bool
	for i, s := range snap.Gov.Servers {
		switch snap.Gov.ServerState(s) {
		case "disabled":
			out[i] = ServerDisabled
			continue
		case "not_allowed":
			out[i] = ServerNotAllowed
			continue
		}
		if s.Layer != settings.LayerProject && s.Layer != settings.LayerProjectLocal {
			continue
		}
		if trusted == nil {
			t, err := gates.TrustOf(sys, snap)
			if err != nil {
				return nil, err
			}
			ok := t.Trusted()
			trusted = &ok
		}
		if !*trusted {
			out[i] = ServerUntrusted
		}
	}
	return out, nil
}

// projectedServers are the servers in force: not disabled, in the
// policy's allowed list when it has one, and from the project layers only
// in a trusted project.
func projectedServers(sys *core.System, snap *settings.Snapshot) ([]settings.Server, error) {
	states, err := ServerStates(sys, snap)
	if err != nil {
		return nil, err
	}
	var out []settings.Server
	for i, s := range snap.Gov.Servers {
		if states[i] == "" {
			out = append(out, s)
		}
	}
	return out, nil
}

// addGovTargets merges the edits into out: into the target that already
// edits the file, else as a new target.
func addGovTargets(out []Target, steps map[string][]jsonStep, owner map[string]string, level string) []Target {
	paths := make([]string, 0, len(steps))
	for p := range steps {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, path := range paths {
		ss := steps[path]
		gov := func(data []byte) ([]byte, error) {
			if len(bytes.TrimSpace(data)) == 0 {
				data = nil
			}
			none := data == nil
			var err error
			for _, s := range ss {
				if data, err = editJSON(data, s); err != nil {
					return nil, fmt.Errorf("%s: %w", path, err)
				}
			}
			if none && string(data) == "{}\n" {
				return nil, nil // nothing to keep: no file
			}
			return data, nil
		}
		if i := slices.IndexFunc(out, func(t Target) bool { return t.Path == path && t.block == nil }); i >= 0 {
			prev := out[i].edit
			out[i].edit = func(old []byte) ([][]byte, error) {
				parts, err := prev(old)
				if err != nil {
					return nil, err
				}
				data, err := gov(join(parts))
				return whole(data), err
			}
			continue
		}
		out = append(out, Target{Agent: owner[path], Level: level, Path: path, kind: fsys.KindAgentJSON,
			edit: func(old []byte) ([][]byte, error) {
				data, err := gov(old)
				return whole(data), err
			}})
	}
	return out
}
