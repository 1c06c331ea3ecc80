package apply

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/settings"
)

// Render is the managed block for snap, markers included, for an agent
// that gets lib of charter's content. It depends on nothing but the
// settings, the scope and the content, never on the binary or the run (no
// version, no time), so its bytes change only when what it says changes
// and upgrading charter never makes `apply --check` fail. What each setting
// says comes from its Tell in the settings schema: one heading per section,
// in schema order. The rules and skills sections say how many are active
// and where, and only exist while some are: settings about rules that do
// not exist would be noise the agent reads as an instruction.
func Render(snap *settings.Snapshot, lib Library) []byte {
	var b bytes.Buffer // its bytes are the block's: no copy of a large block
	b.Grow(4096 + lib.blockSize())
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }

	line("%s", BeginMarker)
	line("## Charter settings")
	line("")
	line("Managed by charter for %s.", scopeText(snap.Scope))
	line("Do not edit between the charter markers: change a setting with `charter settings set`, then run `charter apply`.")
	keys := settings.Keys()
	for _, sec := range settings.Sections() {
		var in []settings.Key
		for _, k := range keys {
			if k.Section() == sec.Name {
				in = append(in, k)
			}
		}
		body := section(snap.Values, in)
		switch sec.Name {
		case "rules", "skills":
			intro := lib.intro(sec.Name)
			if intro == "" {
				continue
			}
			body = append([]string{intro, ""}, body...)
		}
		if len(body) == 0 {
			continue
		}
		line("")
		line("### %s", sec.Title)
		line("")
		for _, l := range body {
			b.WriteString(l) // as line("%s", l)
			b.WriteByte('\n')
		}
		if sec.Name == "rules" {
			lib.writeBlockRules(&b)
		}
	}
	line("%s", EndMarker)
	return b.Bytes()
}

// section renders the keys of one section. Its quality gates, if it has
// any, come first as a checklist; the section's other keys then speak
// about the gates and are shown only while one is on.
func section(values map[string]any, keys []settings.Key) []string {
	var gates, off, says []string
	for _, k := range keys {
		t, v := k.Tell, values[k.Name]
		if t.If != "" && values[t.If] != true {
			continue
		}
		switch {
		case t.Gate != "":
			if gateOn(v) {
				item := "- [ ] " + fill(t.Gate, v)
				if cmd, _ := values[t.Command].(string); t.Command != "" && strings.TrimSpace(cmd) == "" {
					item += " " + t.Unconfigured
				}
				gates = append(gates, item)
			} else {
				off = append(off, t.Label)
			}
		default:
			if s := tell(k, v); s != "" {
				says = append(says, s)
			}
		}
	}
	if len(gates)+len(off) == 0 {
		for i, s := range says {
			says[i] = "- " + s
		}
		return says
	}
	var out []string
	if len(gates) == 0 {
		out = append(out, "No quality gate is set.")
	} else {
		out = append(out, "Before you declare any work done, satisfy every gate:", "")
		out = append(out, gates...)
		for _, s := range says {
			out = append(out, "", s)
		}
	}
	if len(off) > 0 {
		out = append(out, "", fmt.Sprintf("Not required here: %s.", strings.Join(off, ", ")))
	}
	return out
}

// tell is the sentence one value says, or "" when it says nothing (a key
// with an empty Tell is not rendered). A string goes in a code span.
func tell(k settings.Key, v any) string {
	t := k.Tell
	switch x := v.(type) {
	case bool:
		return t.Says.For(strconv.FormatBool(x))
	case string: // an enum; a string or duration when its Tell has a Line
		if len(t.Says) == 0 {
			if x == "" || t.Line == "" {
				return t.None
			}
			if k.Kind == settings.String {
				if x = inline(x); x == "" {
					return t.None
				}
				x = code(x)
			}
			return fmt.Sprintf(t.Line, x)
		}
		if t.Label == "" {
			return t.Says.For(x)
		}
		return fmt.Sprintf("%s: **%s**. %s", t.Label, x, t.Says.For(x))
	case []string:
		if t.Line == "" {
			return ""
		}
		return names(t.Line, t.None, x)
	case int64, settings.Dec:
		if isZero(v) && t.Zero != "" {
			return t.Zero
		}
		if t.Line == "" {
			return ""
		}
		return fill(t.Line, v)
	}
	return ""
}

// gateOn reports whether a gate's value asks for it: true, or a number
// other than 0.
func gateOn(v any) bool {
	if b, ok := v.(bool); ok {
		return b
	}
	return !isZero(v)
}

func isZero(v any) bool {
	switch x := v.(type) {
	case int64:
		return x == 0
	case settings.Dec:
		return x == "0"
	}
	return false
}

// fill puts a number into a sentence; other sentences have no verb.
func fill(sentence string, v any) string {
	switch v.(type) {
	case int64, settings.Dec:
		return fmt.Sprintf(sentence, fmt.Sprint(v))
	}
	return sentence
}

// scopeText names the scope: a profile by its name, other scopes by kind
// and directory.
func scopeText(sc core.Scope) string {
	if sc.Kind == core.ScopeProfile && sc.Profile.Active {
		return "the profile " + clean(sc.Profile.Name())
	}
	return fmt.Sprintf("the %s scope (%s)", sc.Kind, clean(sc.Path))
}

// names renders a list of names in code spans, or none when it is empty.
func names(lead, none string, items []string) string {
	var quoted []string
	for _, it := range items {
		if it = inline(it); it != "" {
			quoted = append(quoted, code(it))
		}
	}
	if len(quoted) == 0 {
		return none
	}
	return lead + ": " + strings.Join(quoted, ", ") + "."
}

// code wraps s in a code span (CommonMark): its fence is one backtick
// longer than the longest run inside, and a value that starts or ends with
// a backtick is padded with a space on each side, which the span strips.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// clean folds every run of white space, newlines included, into one space:
// a value can then never start a line of its own, and so never forge a
// marker.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// inline is a setting's text as one line: validation refuses control
// characters and line separators in settings, and this keeps a value that
// came past it (a snapshot built in code) from breaking a line anyway,
// changing nothing else. Leading and trailing spaces go, so that a code
// span's padding stays the renderer's.
func inline(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if settings.ForbiddenRune(r) {
			return ' '
		}
		return r
	}, s))
}
