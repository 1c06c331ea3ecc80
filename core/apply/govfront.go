package apply

// Amp's amp.permissions and Auggie's toolPermissions are ordered lists of
// rule objects where the first match wins: charter keeps its entries FIRST
// (denies, then asks, then allows), so a user's allow further down cannot
// override a policy deny; an apply that finds them moved puts them back.

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/jsonedit"
	"github.com/agentkit/charter/core/settings"
)

// frontRule is r as an entry of an ordered rule list, in canonical JSON
// (the record's and the file's entries compare by meaning).
func frontRule(format, verdict string, r settings.Rule) ([]string, string, bool) {
	if r.Kind != settings.RuleShell {
		return nil, "", false
	}
	var v any
	switch format {
	case "amp":
		// Bash's cmd globs match the whole command: the prefix alone, or
		// followed by a space and more.
		action := map[string]string{"deny": "reject", "ask": "ask", "allow": "allow"}[verdict]
		v = map[string]any{"tool": "Bash", "matches": map[string]any{"cmd": []string{r.Arg, r.Arg + " *"}}, "action": action}
	case "augment":
		typ := map[string]string{"deny": "deny", "ask": "ask-user", "allow": "allow"}[verdict]
		v = map[string]any{"toolName": "launch-process", "shellInputRegex": "^" + regexp.QuoteMeta(r.Arg) + `(\s.*)?$`,
			"permission": map[string]string{"type": typ}}
	default:
		return nil, "", false
	}
	b, _ := json.Marshal(v)
	return []string{map[string]string{"amp": "amp.permissions", "augment": "toolPermissions"}[format]}, string(b), true
}

// frontWhy says why Amp or Auggie cannot hold rule r.
func frontWhy(display, format string) string {
	if format == "amp" {
		return display + "'s amp.permissions match tools by their input; charter writes Bash command rules only (no documented path, domain or server match)"
	}
	return display + "'s toolPermissions match launch-process commands by regex; charter writes those only (no documented path, domain or server match)"
}

// canon is raw JSON re-encoded with sorted keys, "" when it is not JSON.
func canon(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// canonList is the canonical entries of the list at keys in d.
func canonList(d *jsonedit.Doc, keys []string) []string {
	if d == nil {
		return nil
	}
	n := d.Root.Lookup(keys...)
	if n == nil || n.Val.Kind != '[' {
		return nil
	}
	out := make([]string, len(n.Val.Elems))
	for i, e := range n.Val.Elems {
		out[i] = canon(d.Raw(e))
	}
	return out
}

// frontRank orders charter's entries: denies first, then asks, allows.
func frontRank(entry string) int {
	switch {
	case strings.Contains(entry, `"reject"`), strings.Contains(entry, `"type":"deny"`):
		return 0
	case strings.Contains(entry, `"ask`):
		return 1
	}
	return 2
}

// frontStep keeps want as the first elements of the list at keys, in
// order, and takes out the entries of drop and any later copy of a wanted
// one.
func frontStep(keys, want, drop []string, made ...int) jsonStep {
	want = slices.Clone(want)
	slices.SortStableFunc(want, func(x, y string) int { return frontRank(x) - frontRank(y) })
	removed := false
	return func(d *jsonedit.Doc, fail func(int, string, ...any) error) ([]byte, error) {
		if removed {
			if edit := pruneEmpty(d, keys, made); edit != nil {
				return edit, nil
			}
		}
		if len(want) == 0 && (len(drop) == 0 || d.Root.Lookup(keys...) == nil) {
			return nil, nil
		}
		parent, edit, err := object(d, fail, keys[:len(keys)-1])
		if err != nil || edit != nil {
			return edit, err
		}
		m := parent.Member(keys[len(keys)-1])
		raw := func(w string) jsonedit.Value { return render(d, json.RawMessage(w)) }
		if m == nil {
			if len(want) == 0 {
				return nil, nil
			}
			list := make([]json.RawMessage, len(want))
			for i, w := range want {
				list[i] = json.RawMessage(w)
			}
			return d.AppendMember(parent, keys[len(keys)-1], render(d, list)), nil
		}
		if m.Val.Kind != '[' {
			return nil, fail(m.Val.Start, "%s is not a list", what(keys))
		}
		have := canonList(d, keys)
		for i, w := range want {
			if i < len(have) && have[i] == w {
				continue
			}
			if j := slices.Index(have[i:], w); j >= 0 {
				return d.Remove(m.Val, i+j), nil // moved down: it goes back to the front
			}
			return d.InsertElem(m.Val, i, raw(w)), nil
		}
		for i := len(want); i < len(have); i++ {
			if slices.Contains(want, have[i]) || slices.Contains(drop, have[i]) {
				removed = true
				return d.Remove(m.Val, i), nil
			}
		}
		return nil, nil
	}
}
