package apply

// Projecting permissions and MCP servers (SPEC §14) into the places the
// agent table names: each becomes one more edit of an agent JSON file,
// merged into the target that already edits that file (Claude's
// settings.json holds the Stop hook too).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/tomledit"
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
			if r.Arg == settings.WebEvery {
				// Claude's matcher has no every-domain form (WebFetch(domain:*)
				// matches no domain, anthropics/claude-code#11972): the bare
				// tool name is every use of WebFetch.
				return list, "WebFetch", true
			}
			return list, "WebFetch(domain:" + r.Arg + ")", true
		case settings.RuleMCP:
			return list, "mcp__" + strings.ReplaceAll(r.Arg, "/", "__"), true
		}
	case "gemini":
		// tools.exclude and tools.allowed take a shell command prefix as
		// run_shell_command(PREFIX), and a whole tool (web_fetch: every
		// domain); Gemini has no ask list.
		every := r.Kind == settings.RuleWeb && r.Arg == settings.WebEvery
		if (r.Kind != settings.RuleShell && !every) || verdict == "ask" {
			return nil, "", false
		}
		list = []string{"tools", "exclude"}
		if verdict == "allow" {
			list = []string{"tools", "allowed"}
		}
		if every {
			return list, "web_fetch", true
		}
		return list, "run_shell_command(" + r.Arg + ")", true
	case "codex":
		// A line of charter's execpolicy rules file (govtoml.go).
		if r.Kind == settings.RuleShell {
			return []string{"prefix_rule"}, codexRule(verdict, r.Arg), true
		}
	case "droid":
		return droidRule(verdict, r)
	case "amp", "augment":
		return frontRule(format, verdict, r)
	case "zed":
		return zedRule(verdict, r)
	case "continue":
		return continueRule(verdict, r)
	case "qwen":
		entry, ok := qwenRule(r)
		return []string{"permissions", verdict}, entry, ok
	case "opencode":
		return opencodeRule(r)
	case "cursor":
		// Cursor CLI's cli.json: allow and deny, Shell(first word),
		// Read(glob), Write(glob).
		list = []string{"permissions", verdict}
		switch {
		case verdict == "ask":
		case r.Kind == settings.RuleShell && len(strings.Fields(r.Arg)) == 1:
			return list, "Shell(" + r.Arg + ")", true
		case r.Kind == settings.RuleRead:
			return list, "Read(" + r.Arg + ")", true
		case r.Kind == settings.RuleWrite:
			return list, "Write(" + r.Arg + ")", true
		}
	}
	return nil, "", false
}

var envVar = lazy.Regexp{Expr: `\$\{([A-Za-z_][A-Za-z0-9_]*)\}`}

// NativeServer is s in the shape of format; ${VAR} stays a reference in
// the agent's own spelling (Cursor and VS Code: ${env:VAR}).
func NativeServer(format string, s settings.Server) any {
	if v, _, ok := docServer(format, s); ok {
		return v
	}
	if format == "opencode" {
		return opencodeServer(s)
	}
	ref := func(m map[string]string) map[string]string {
		if len(m) == 0 {
			return nil
		}
		out := make(map[string]string, len(m))
		for k, v := range m {
			if format == "cursor" || format == "vscode" {
				v = envVar.Get().ReplaceAllString(v, "$${env:$1}")
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
		Tools   []string          `json:"tools,omitempty"`
	}
	type remote struct {
		Type    string            `json:"type,omitempty"`
		URL     string            `json:"url,omitempty"`
		HTTPURL string            `json:"httpUrl,omitempty"`
		Headers map[string]string `json:"headers,omitempty"`
		Tools   []string          `json:"tools,omitempty"`
	}
	typ := "stdio"
	if format == "gemini" || format == "cursor" {
		typ = ""
	}
	var tools []string
	if format == "copilot" {
		// The Copilot CLI's mcp-config.json: "local" or "http", and the
		// tools it may call (every one: charter's rules do the denying).
		typ, tools = "local", []string{"*"}
	}
	if s.Command != "" {
		return stdio{Type: typ, Command: s.Command, Args: args, Env: ref(s.Env), Tools: tools}
	}
	if format == "gemini" {
		return remote{HTTPURL: s.URL, Headers: ref(s.Headers)}
	}
	if typ != "" {
		typ = "http"
	}
	return remote{Type: typ, URL: s.URL, Headers: ref(s.Headers), Tools: tools}
}

// mcpMembers is where a format keeps its servers.
func mcpMembers(format string) []string {
	if k := docMembers(format); k != nil {
		return k
	}
	switch format {
	case "vscode":
		return []string{"servers"}
	case "codextoml":
		return []string{"mcp_servers"}
	case "opencode":
		return []string{"mcp"}
	case "goose":
		return []string{"extensions"}
	}
	return []string{"mcpServers"}
}

// govEdits plans the permission and server edits for the selected agents
// at level; base is the agent's directory (user) or the project root. A
// file the record names for a selected agent is planned even when nothing
// is wanted there any more, so charter's old entries go.
func govEdits(sys *core.System, snap *settings.Snapshot, level string, sel []agents.Agent, base func(agents.Agent) (string, error), book *govBook) ([]*govFile, []GovUnsupported, error) {
	g := snap.Gov
	if g == nil {
		g = &settings.Governance{}
	}
	var files []*govFile
	file := func(path, agent, format string) *govFile {
		for _, f := range files {
			if f.path == path {
				return f
			}
		}
		f := &govFile{path: path, agent: agent, level: level, format: format, jsonc: agents.JSONC(format)}
		if format == "opencode" {
			f.format = "json"
		}
		files = append(files, f)
		return f
	}
	var gaps []GovUnsupported
	servers, err := projectedServers(sys, snap)
	if err != nil {
		return nil, nil, err
	}
	for _, a := range sel {
		pl := a.At(level)
		dir, err := base(a)
		if err != nil {
			return nil, nil, err
		}
		if pl.PermFormat != "" {
			var f *govFile // made for the first rule the agent expresses
			if len(g.Permissions) > 0 {
				f = file(sys.Paths.Join(dir, pl.Permissions), a.Name, jsonKind(pl.PermFormat))
				f.jsonc = f.jsonc || agents.JSONC(pl.PermFormat) // with no server, too
			}
			var shell, policy []string
			var policyLocked bool
			for _, e := range g.Permissions {
				r, err := settings.ParseRule(e.Rule)
				if err != nil {
					continue
				}
				if pl.PermFormat == "gemini" {
					if rule := geminiPolicyRule(e.Verdict, r); rule != "" && pl.PermPolicy != "" {
						policy, policyLocked = append(policy, rule), policyLocked || e.Locked
						if e.Verdict == "ask" {
							continue // the policy engine's ask_user is its only place
						}
					} else if rule != "" {
						gaps = append(gaps, GovUnsupported{a.Name, level, e.Verdict + " " + e.Rule, geminiProjectPolicyWhy})
						if e.Verdict == "ask" {
							continue
						}
					}
				}
				if pl.PermFormat == "codex" && r.Kind == settings.RuleWeb && r.Arg == settings.WebEvery {
					if e.Verdict != "deny" { // a deny is the sandbox's network_access = false, below
						gaps = append(gaps, GovUnsupported{a.Name, level, e.Verdict + " " + e.Rule, codexWebEveryWhy(a.Display)})
					}
					continue
				}
				if pl.PermFormat == "zed" { // a rule may take several entries
					if !f.zedAdd(e.Verdict, r, e.Locked) {
						gaps = append(gaps, GovUnsupported{a.Name, level, e.Verdict + " " + e.Rule, unsupportedWhy(a, pl.PermFormat, r)})
					}
					continue
				}
				keys, entry, ok := NativeRule(pl.PermFormat, e.Verdict, r)
				if !ok {
					gaps = append(gaps, GovUnsupported{a.Name, level, e.Verdict + " " + e.Rule, unsupportedWhy(a, pl.PermFormat, r)})
					continue
				}
				if pl.PermFormat == "codex" {
					shell = append(shell, entry)
					f.locked = f.locked || e.Locked
					continue
				}
				l := f.list(keys)
				if pl.PermFormat == "opencode" {
					l.setVal(entry, e.Verdict) // one verdict per pattern: the strongest
				} else {
					l.want = append(l.want, entry)
				}
				if e.Locked && e.Verdict == "deny" {
					// A native allow or ask of a denied rule, put there by
					// hand, is taken out: the lock holds in the file too.
					for _, v := range []string{"ask", "allow"} {
						if ks, ent, ok := NativeRule(pl.PermFormat, v, r); ok && !slices.Equal(ks, keys) {
							f.list(ks).drop = append(f.list(ks).drop, ent)
						}
					}
				}
			}
			if pl.PermFormat == "codex" && f != nil {
				f.rules = codexRules(shell)
				if codexNetOff(g) && pl.MCPFormat == "codextoml" {
					file(mcpPath(sys, a, level, dir, pl.MCP), a.Name, jsonKind(pl.MCPFormat)).netOff = true
				}
			}
			if len(policy) > 0 {
				pf := file(sys.Paths.Join(dir, pl.PermPolicy), a.Name, "rules")
				pf.rules, pf.locked = geminiPolicy(policy), policyLocked
			}
		} else {
			why := pl.PermNone
			if why == "" {
				why = "charter has no place for " + a.Display + "'s permissions yet"
			}
			for _, e := range g.Rules("deny") {
				gaps = append(gaps, GovUnsupported{a.Name, level, "deny " + e.Rule, why})
			}
		}
		if len(servers) == 0 {
			continue
		}
		if pl.MCPFormat == "" {
			why := pl.MCPNone
			if why == "" {
				why = "charter has no place for " + a.Display + "'s MCP servers at " + level + " level yet"
			}
			for _, s := range servers {
				gaps = append(gaps, GovUnsupported{a.Name, level, "server " + s.Name, why})
			}
			continue
		}
		f := file(mcpPath(sys, a, level, dir, pl.MCP), a.Name, jsonKind(pl.MCPFormat))
		f.jsonc = f.jsonc || agents.JSONC(pl.MCPFormat)
		f.serverKeys = mcpMembers(pl.MCPFormat)
		if f.servers == nil {
			f.servers = map[string]any{}
		}
		for _, s := range servers {
			if _, why, _ := docServer(pl.MCPFormat, s); why != "" {
				gaps = append(gaps, GovUnsupported{a.Name, level, "server " + s.Name, why})
				continue
			}
			if pl.MCPFormat != "codextoml" {
				f.servers[s.Name] = NativeServer(pl.MCPFormat, s)
				continue
			}
			kvs, why := codexServer(s)
			if why != "" {
				gaps = append(gaps, GovUnsupported{a.Name, level, "server " + s.Name, why})
				continue
			}
			f.servers[s.Name] = tomledit.Table(append(slices.Clone(f.serverKeys), s.Name), kvs)
		}
	}
	for path, es := range book.prev {
		if len(es) > 0 && slices.ContainsFunc(sel, func(a agents.Agent) bool { return a.Name == es[0].Agent }) {
			f := file(path, es[0].Agent, recordFormat(path, es))
			f.jsonc = f.jsonc || recordJSONC(sys, es[0].Agent, path)
			for _, e := range es {
				if k := serverKey(e.Key); k != nil && f.serverKeys == nil {
					f.serverKeys = k
				}
			}
		}
	}
	return files, gaps, nil
}

// addGovTargets merges the edits into out: into the target that already
// edits the file, else as a new target; the record's target comes last,
// after every file whose entries it records.
func addGovTargets(out []Target, files []*govFile, book *govBook) []Target {
	slices.SortFunc(files, func(x, y *govFile) int { return strings.Compare(x.path, y.path) })
	for _, f := range files {
		path := f.path
		gov := func(data []byte) ([]byte, error) {
			data, err := f.edit(book, data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			return data, nil
		}
		if i := slices.IndexFunc(out, func(t Target) bool { return t.Path == path && t.block == nil }); i >= 0 {
			prev := out[i].edit
			out[i].unplace, out[i].gov = true, true // a file charter's entries alone made goes with them
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
		out = append(out, Target{Agent: f.agent, Level: f.level, Path: path, kind: fsys.KindAgentJSON, unplace: true, gov: true,
			edit: func(old []byte) ([][]byte, error) {
				data, err := gov(old)
				return whole(data), err
			}})
	}
	if len(files) > 0 || len(book.prev) > 0 {
		out = append(out, book.target())
	}
	return out
}
