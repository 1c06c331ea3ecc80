package apply

// Zed's agent.tool_permissions (zed.dev/docs/ai/tool-permissions, Zed
// 0.224 and later): per tool, always_deny, always_confirm and always_allow
// lists of {"pattern": REGEX} matched against the tool's input; the
// terminal tool's input is the command line, each sub-command of a chain
// checked on its own. Deny beats confirm beats allow whatever the order,
// so charter's entries are simply kept first in each list. Zed reads the
// agent key from the user's settings.json only: a project's
// .zed/settings.json holds no agent settings.

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/agentkit/charter/core/settings"
)

// zedTerminal is the object of the terminal tool's lists.
var zedTerminal = []string{"agent", "tool_permissions", "tools", "terminal"}

// zedLists maps charter's verdicts to Zed's list names.
var zedLists = map[string]string{"deny": "always_deny", "ask": "always_confirm", "allow": "always_allow"}

// zedRule is a shell rule as a terminal pattern: the words anchored at
// the start, any run of blanks between them, and a blank or the end after
// the last (shell:git push matches git push --force, not git pushx). Zed
// matches case-insensitively by default: right for a deny or a confirm
// (they catch more), too wide for an allow, which is case-sensitive.
func zedRule(verdict string, r settings.Rule) ([]string, string, bool) {
	list, known := zedLists[verdict]
	if r.Kind != settings.RuleShell || !known {
		return nil, "", false
	}
	words := strings.Fields(r.Arg)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	entry := map[string]any{"pattern": "^" + strings.Join(words, `\s+`) + `(\s|$)`}
	if verdict == "allow" {
		entry["case_sensitive"] = true
	}
	b, _ := json.Marshal(entry)
	return append(append([]string(nil), zedTerminal...), list), string(b), true
}

// zedList says whether key is one of the terminal tool's pattern lists,
// whose entries are objects compared by meaning.
func zedList(key string) bool {
	for _, l := range zedLists {
		if key == strings.Join(zedTerminal, ".")+"."+l {
			return true
		}
	}
	return false
}

// ZedShellPrefix reads back a terminal pattern charter's form: the prefix
// of its shell rule, or ok false for a pattern written any other way.
func ZedShellPrefix(pattern string) (string, bool) {
	body, anchored := strings.CutPrefix(pattern, "^")
	body, ended := strings.CutSuffix(body, `(\s|$)`)
	if !anchored || !ended || body == "" {
		return "", false
	}
	var words []string
	for _, q := range strings.Split(body, `\s+`) {
		w := unquoteMeta(q)
		if w == "" || regexp.QuoteMeta(w) != q {
			return "", false
		}
		words = append(words, w)
	}
	return strings.Join(words, " "), true
}

// unquoteMeta undoes regexp.QuoteMeta ("" when s holds an unescaped
// metacharacter or blank).
func unquoteMeta(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// zedWhy says why Zed cannot hold rule r (at user level).
func zedWhy(display string) string {
	return display + "'s tool_permissions match each tool's input by regex; charter writes the terminal tool's command rules only (its read tool takes no rules, and paths, domains and MCP tools are not translated to edit_file, fetch or mcp: patterns)"
}
