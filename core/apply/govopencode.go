package apply

// OpenCode and Kilo Code (its fork) keep permissions in their config file
// (opencode.json, kilo.json) as objects of pattern → "allow" | "ask" |
// "deny": permission.bash by command, permission.read and permission.edit
// by path relative to the project, and a tool name at permission's top
// level (an MCP tool is SERVER_TOOL). The agent takes the LAST pattern that
// matches, so charter's entries are kept at the end of their object,
// allows first, then asks, then denies: a deny beats what comes before it.
// Qwen Code (0.24) reads Claude-style permissions.{allow,ask,deny} lists.

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/jsonedit"
	"github.com/agentkit/charter/core/settings"
)

// opencodeRule is r in OpenCode's permission object: the keys of the
// object, the pattern it holds (its value is the verdict).
func opencodeRule(r settings.Rule) (keys []string, pattern string, ok bool) {
	switch r.Kind {
	case settings.RuleShell:
		// "PREFIX *" matches PREFIX alone and PREFIX followed by anything.
		return []string{"permission", "bash"}, r.Arg + " *", true
	case settings.RuleRead, settings.RuleWrite:
		if strings.HasPrefix(r.Arg, "~/") {
			return nil, "", false // the agent matches paths relative to the project
		}
		key := "read"
		if r.Kind == settings.RuleWrite {
			key = "edit"
		}
		return []string{"permission", key}, r.Arg, true
	case settings.RuleWeb:
		if r.Arg == settings.WebEvery {
			return []string{"permission"}, "webfetch", true // one action for every URL
		}
	case settings.RuleMCP:
		srv, tool, _ := strings.Cut(r.Arg, "/")
		if tool == "" {
			tool = "*"
		}
		return []string{"permission"}, srv + "_" + tool, true
	}
	return nil, "", false
}

// qwenRule is r as a Qwen Code permissions entry: Bash(PREFIX) matches
// PREFIX and PREFIX followed by a space and more.
func qwenRule(r settings.Rule) (string, bool) {
	switch r.Kind {
	case settings.RuleShell:
		return "Bash(" + r.Arg + ")", true
	case settings.RuleRead:
		return "Read(" + r.Arg + ")", true
	case settings.RuleWrite:
		return "Edit(" + r.Arg + ")", true
	case settings.RuleWeb:
		if r.Arg == settings.WebEvery {
			return "WebFetch", true // the bare tool: every fetch
		}
		return "WebFetch(" + r.Arg + ")", true
	case settings.RuleMCP:
		return "mcp__" + strings.ReplaceAll(r.Arg, "/", "__"), true
	}
	return "", false
}

// opencodeServer is s in OpenCode's mcp object: the command and its
// arguments in one list, ${VAR} as OpenCode's {env:VAR}.
func opencodeServer(s settings.Server) any {
	ref := func(m map[string]string) map[string]string {
		if len(m) == 0 {
			return nil
		}
		out := make(map[string]string, len(m))
		for k, v := range m {
			out[k] = envVar.Get().ReplaceAllString(v, "{env:$1}")
		}
		return out
	}
	if s.Command != "" {
		return struct {
			Type        string            `json:"type"`
			Command     []string          `json:"command"`
			Environment map[string]string `json:"environment,omitempty"`
		}{"local", append([]string{s.Command}, s.Args...), ref(s.Env)}
	}
	return struct {
		Type    string            `json:"type"`
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers,omitempty"`
	}{"remote", s.URL, ref(s.Headers)}
}

// jsonKind is how a format's file is edited; an OpenCode-style file is
// JSON that must hold no comments.
func jsonKind(format string) string {
	if format == "opencode" {
		return format
	}
	return fileFormat(format)
}

// setVal wants pattern with verdict, or the stronger verdict it has.
func (l *govList) setVal(pattern, verdict string) {
	if l.vals == nil {
		l.vals = map[string]string{}
	}
	old, had := l.vals[pattern]
	if !had {
		l.want = append(l.want, pattern)
	}
	if !had || verdictRank(verdict) > verdictRank(old) {
		l.vals[pattern] = verdict
	}
}

// verdictRank orders charter's entries in an object: the agent takes the
// last match, so a deny comes last.
func verdictRank(v string) int {
	return map[string]int{"allow": 0, "ask": 1, "confirm": 1, "deny": 2}[v]
} // confirm: Zed's ask

// objectHave is the members of the object at keys whose value is vals'.
func objectHave(d *jsonedit.Doc, keys []string, vals map[string]string) []string {
	if d == nil {
		return nil
	}
	n := d.Root.Lookup(keys...)
	if n == nil || n.Val.Kind != '{' {
		return nil
	}
	var out []string
	for _, m := range n.Val.Members {
		var s string
		if json.Unmarshal(d.Raw(m.Val), &s) == nil && s == vals[m.Key] {
			out = append(out, m.Key)
		}
	}
	return out
}

// isObject says whether the member at keys of d is an object.
func isObject(d *jsonedit.Doc, keys []string) bool {
	if d == nil {
		return false
	}
	n := d.Root.Lookup(keys...)
	return n != nil && n.Val.Kind == '{'
}

// objStep keeps want (pattern → vals[pattern]) as the last members of the
// object at keys, in order, and takes out every member of drop that is
// not wanted.
func objStep(keys, want []string, vals map[string]string, drop []string, made ...int) jsonStep {
	want = slices.Clone(want)
	slices.SortStableFunc(want, func(x, y string) int { return verdictRank(vals[x]) - verdictRank(vals[y]) })
	removed := false
	return func(d *jsonedit.Doc, fail func(int, string, ...any) error) ([]byte, error) {
		if removed && len(want) == 0 { // else what pruning empties is made again
			if edit := pruneEmpty(d, keys, made); edit != nil {
				return edit, nil
			}
		}
		if len(want) == 0 && (len(drop) == 0 || d.Root.Lookup(keys...) == nil) {
			return nil, nil
		}
		if m := d.Root.Lookup(keys...); m != nil && m.Val.Kind == '"' {
			return nil, fail(m.Val.Start, "%s is one action for everything (%s): write it as {\"*\": %s} so charter can add its patterns after it",
				strings.Join(keys, "."), d.Raw(m.Val), d.Raw(m.Val))
		}
		obj, edit, err := object(d, fail, keys)
		if err != nil || edit != nil {
			return edit, err
		}
		for i, m := range obj.Members {
			if _, wanted := vals[m.Key]; !wanted && slices.Contains(drop, m.Key) {
				removed = true
				return d.Remove(obj, i), nil
			}
		}
		value := func(m *jsonedit.Member) string {
			var s string
			_ = json.Unmarshal(d.Raw(m.Val), &s)
			return s
		}
		n, placed := len(obj.Members), 0
		for j := min(len(want), n); j > 0; j-- {
			ok := true
			for i := 0; i < j && ok; i++ {
				m := obj.Members[n-j+i]
				ok = m.Key == want[i] && value(m) == vals[want[i]]
			}
			if ok {
				placed = j
				break
			}
		}
		if placed == len(want) {
			return nil, nil
		}
		for i, m := range obj.Members[:n-placed] {
			if _, wanted := vals[m.Key]; wanted {
				return d.Remove(obj, i), nil // moved to the end, where it decides
			}
		}
		return d.AppendMember(obj, want[placed], render(d, vals[want[placed]])), nil
	}
}
