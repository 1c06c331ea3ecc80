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
	"slices"
	"strings"

	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/settings"
)

// zedTools is the object of the tools' lists and defaults.
var zedTools = []string{"agent", "tool_permissions", "tools"}

// zedLists maps charter's verdicts to Zed's list names.
var zedLists = lazy.Value[map[string]string]{Make: func() map[string]string {
	return map[string]string{"deny": "always_deny", "ask": "always_confirm", "allow": "always_allow"}
}}

// zedModes maps charter's verdicts to an MCP tool's default.
var zedModes = lazy.Value[map[string]string]{Make: func() map[string]string {
	return map[string]string{"deny": "deny", "ask": "confirm", "allow": "allow"}
}}

// zedWriteTools are Zed's tools that change a file or folder, each
// matched on its path (both paths for a move or a copy): a write rule
// goes to every one (write_file is Zed's newer whole-file tool).
var zedWriteTools = []string{"copy_path", "create_directory", "delete_path", "edit_file", "move_path", "restore_file_from_disk", "save_file", "write_file"}

// zedEntry is one entry of rule r: keys of its list (or of an MCP
// tool's object, entry "default"), and the entry.
type zedEntry struct {
	keys  []string
	entry string
}

// zedEntries is rule r in Zed's tool_permissions: a shell rule in the
// terminal tool's list, a write rule in every write tool's (deny and ask:
// the pattern is wider than the rule), a web rule in fetch's, an MCP
// tool's verdict as its default (Zed matches no pattern for MCP tools).
func zedEntries(verdict string, r settings.Rule) ([]zedEntry, bool) {
	list, known := zedLists.Get()[verdict]
	if !known {
		return nil, false
	}
	// An allow matches with case (Zed's default is without, which for an
	// allow would be more than the rule); a host has no case.
	in := func(tool, pattern string) zedEntry {
		entry := map[string]any{"pattern": pattern}
		if verdict == "allow" && tool != "fetch" {
			entry["case_sensitive"] = true
		}
		b, _ := json.Marshal(entry)
		return zedEntry{append(slices.Clone(zedTools), tool, list), string(b)}
	}
	switch r.Kind {
	case settings.RuleShell:
		words := strings.Fields(r.Arg)
		for i, w := range words {
			words[i] = regexp.QuoteMeta(w)
		}
		return []zedEntry{in("terminal", "^"+strings.Join(words, `\s+`)+`(\s|$)`)}, true
	case settings.RuleWrite:
		re, ok := zedGlob(r.Arg)
		if !ok || verdict == "allow" {
			return nil, false
		}
		var out []zedEntry
		for _, t := range zedWriteTools {
			out = append(out, in(t, re))
		}
		return out, true
	case settings.RuleWeb:
		return []zedEntry{in("fetch", zedURL(r.Arg))}, true
	case settings.RuleMCP:
		srv, tool, one := strings.Cut(r.Arg, "/")
		if !one {
			return nil, false
		}
		return []zedEntry{{append(slices.Clone(zedTools), "mcp:"+srv+":"+tool), "default"}}, true
	}
	return nil, false
}

// zedRule is rule r's first entry (the terminal's, fetch's, copy_path's
// for a write rule): what NativeRule shows.
func zedRule(verdict string, r settings.Rule) ([]string, string, bool) {
	es, ok := zedEntries(verdict, r)
	if !ok {
		return nil, "", false
	}
	return es[0].keys, es[0].entry, true
}

// zedAdd puts r's entries in f; with a policy deny, a hand-written
// confirm or allow of the same rule is taken out (Zed's deny wins
// anyway; the file then says what holds).
func (f *govFile) zedAdd(verdict string, r settings.Rule, locked bool) bool {
	es, ok := zedEntries(verdict, r)
	for _, e := range es {
		if l := f.list(e.keys); e.entry == "default" {
			l.setVal(e.entry, zedModes.Get()[verdict])
		} else {
			l.want = append(l.want, e.entry)
		}
	}
	for _, v := range []string{"ask", "allow"} {
		others, _ := zedEntries(v, r)
		for _, o := range others {
			if locked && verdict == "deny" && o.entry != "default" {
				f.list(o.keys).drop = append(f.list(o.keys).drop, o.entry)
			}
		}
	}
	return ok
}

// zedList says whether key is one of a tool's pattern lists, whose
// entries are objects compared by meaning.
func zedList(key string) bool {
	rest, ok := strings.CutPrefix(key, strings.Join(zedTools, ".")+".")
	tool, list, two := strings.Cut(rest, ".")
	if !ok || !two || tool == "" || strings.Contains(list, ".") {
		return false
	}
	for _, l := range zedLists.Get() {
		if list == l {
			return true
		}
	}
	return false
}

// zedKey says whether key is one charter writes in Zed's settings: a
// pattern list, or an MCP tool's object (its default).
func zedKey(key string) bool {
	rest, ok := strings.CutPrefix(key, strings.Join(zedTools, ".")+".mcp:")
	return zedList(key) || ok && !strings.Contains(rest, ".")
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
func zedWhy(display string, r settings.Rule) string {
	switch r.Kind {
	case settings.RuleRead:
		return display + "'s read tools take no tool_permissions rules (they cover the terminal, file-changing tools, fetch and MCP tools)"
	case settings.RuleWrite:
		if strings.Contains(r.Arg, "[") {
			return display + " matches paths with Rust regexes, where a [class] of a glob reads differently: write the characters out"
		}
		return display + " matches a file tool's path as the model writes it (with the worktree's folder name, or absolute), so charter writes a write rule as a pattern on the path's end: wider than the rule, right for a deny or an ask, too wide for an allow"
	case settings.RuleMCP:
		return display + " keys MCP permissions by tool (mcp:SERVER:TOOL), with no entry for all of a server's tools: write mcp:SERVER/TOOL rules, one per tool"
	}
	return display + " has no place for this rule"
}
