package gates

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentkit/charter/core"
)

// HookCommandSuffix ends the command of charter's Stop hook entry; an
// entry whose command ends with it is charter's, whatever binary path or
// global flags come before it.
const HookCommandSuffix = "gate hook claude-stop"

// IsCharterHook reports whether a hook command is charter's Stop hook.
func IsCharterHook(command string) bool {
	return strings.HasSuffix(strings.TrimSpace(command), HookCommandSuffix)
}

// SettingsError is a Claude settings.json that cannot be edited safely.
// Line and Column are 1-based; 0 when the problem has no position.
type SettingsError struct {
	Line, Column int
	Msg          string
}

// Code names the error for the CLI's exit table and the HTTP status table.
func (e *SettingsError) Code() string { return core.CodeMalformedAgentSettings }

func (e *SettingsError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
	}
	return e.Msg
}

// StopHook is charter's Stop hook entry: the command Claude Code runs and
// its "timeout" in seconds (HookCommand and HookTimeout make them).
type StopHook struct {
	Command string
	Timeout int
}

// EnsureStopHook returns Claude Code settings.json data with charter's
// Stop hook entry present (with exactly hook's command and timeout) or
// absent. Claude Code's hooks reference gives the shape:
//
//	{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "…", "timeout": 1920}]}]}}
//
// Charter's entry is the hook whose command ends with HookCommandSuffix.
// The edit splices bytes: every other byte of the file stays as it was, so
// other keys, their order, the user's own hooks, unknown keys, number
// spellings and the indentation are kept; inserted text copies the
// indentation and line endings of its neighbours. When nothing needs to
// change, data is returned as is.
//
//   - present: an entry with another command (an older binary path) gets
//     the new command, and one with another timeout (gates.timeout
//     changed) or none gets hook's, each in place; the entry keeps its
//     place and other fields. Extra charter entries are removed; with
//     none, a new group {"hooks": [entry]} is appended to hooks.Stop,
//     creating Stop and hooks when missing. An empty file becomes a
//     minimal document.
//   - absent: each charter entry is removed. A group it leaves with no
//     hooks is removed, then a Stop list left empty, then a hooks object
//     left empty: an empty one means nothing to Claude Code, and it can
//     only be left empty when charter's entry was all it held. So adding
//     and then removing the entry gives back the original bytes.
//
// Invalid JSON, a top level that is not an object, "hooks" that is not an
// object or "Stop" that is not a list is a *SettingsError, and nothing is
// changed. Of duplicate keys the last counts, as in Claude Code.
func EnsureStopHook(data []byte, hook StopHook, present bool) ([]byte, error) {
	return ensureStopHook(data, hook, HookCommandSuffix, present)
}

// ensureStopHook is EnsureStopHook for the entry whose command ends with
// suffix: Codex's hooks.json has the same shape (see HookKind).
func ensureStopHook(data []byte, hook StopHook, suffix string, present bool) ([]byte, error) {
	if present && !strings.HasSuffix(strings.TrimSpace(hook.Command), suffix) {
		return nil, fmt.Errorf("hook command %q does not end with %q", hook.Command, suffix)
	}
	if present && hook.Timeout <= 0 {
		return nil, fmt.Errorf("hook timeout %d is not a positive number of seconds", hook.Timeout)
	}
	bomLen := 0
	if bytes.HasPrefix(data, []byte(bom)) {
		bomLen = len(bom)
	}
	body := data[bomLen:]
	if len(bytes.TrimSpace(body)) == 0 {
		if !present {
			return data, nil
		}
		return minimalSettings(hook), nil
	}
	if err := validJSON(body); err != nil {
		return nil, err
	}
	changed := false
	// One edit per round, then parse again: the files are small, and each
	// edit then works on offsets that are certainly current.
	for round := 0; ; round++ {
		if round > 1000 {
			return nil, errors.New("too many charter hook entries to edit")
		}
		next, err := editOnce(body, hook, suffix, present)
		if err != nil {
			return nil, err
		}
		if next == nil {
			break
		}
		body, changed = next, true
	}
	if !changed {
		return data, nil
	}
	return append(bytes.Clone(data[:bomLen]), body...), nil
}

// hookEntry and hookGroup render charter's entry in key order.
type hookEntry struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

type hookGroup struct {
	Hooks []hookEntry `json:"hooks"`
}

func charterGroup(hook StopHook) hookGroup {
	return hookGroup{Hooks: []hookEntry{{Type: "command", Command: hook.Command, Timeout: hook.Timeout}}}
}

func minimalSettings(hook StopHook) []byte {
	v := struct {
		Hooks struct {
			Stop []hookGroup `json:"Stop"`
		} `json:"hooks"`
	}{}
	v.Hooks.Stop = []hookGroup{charterGroup(hook)}
	return []byte(render(v, "", "  ", true, "\n") + "\n")
}

// validJSON reports invalid JSON with its line and column.
func validJSON(data []byte) error {
	var v any
	err := json.Unmarshal(data, &v)
	if err == nil {
		if _, ok := v.(map[string]any); !ok {
			return &SettingsError{Msg: "the settings are not a JSON object"}
		}
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off := int(se.Offset)
		if off > 0 && off <= len(data) && !strings.HasPrefix(se.Error(), "unexpected end") {
			off-- // Offset counts the byte that made it fail
		}
		line, col := position(data, off)
		return &SettingsError{Line: line, Column: col, Msg: "invalid JSON: " + se.Error()}
	}
	return &SettingsError{Msg: "invalid JSON: " + err.Error()}
}

func errAt(data []byte, off int, msg string) error {
	line, col := position(data, off)
	return &SettingsError{Line: line, Column: col, Msg: msg}
}

func position(data []byte, off int) (line, col int) {
	off = min(off, len(data))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = off - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// charterEntry locates one charter entry: group g of Stop, hook e of that
// group's hooks list.
type charterEntry struct {
	group, entry *jnode // the group object and the entry object
	groupHooks   *jnode // the group's hooks list
	command      *jnode // the entry's command string
}

// editOnce makes the first edit needed and returns the new bytes, or nil
// when the file already is as wanted.
func editOnce(data []byte, hook StopHook, suffix string, present bool) ([]byte, error) {
	root, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	hooksM := root.member("hooks")
	var stop *jnode
	var stopM *jmember
	if hooksM != nil {
		if hooksM.val.kind != '{' {
			return nil, errAt(data, hooksM.val.start, `"hooks" is not an object; fix it by hand, then run again`)
		}
		if stopM = hooksM.val.member("Stop"); stopM != nil {
			stop = stopM.val
			if stop.kind != '[' {
				return nil, errAt(data, stop.start, `"hooks.Stop" is not a list; fix it by hand, then run again`)
			}
		}
	}
	var found []charterEntry
	if stop != nil {
		for _, g := range stop.elems {
			gh := g.member("hooks")
			if g.kind != '{' || gh == nil || gh.val.kind != '[' {
				continue
			}
			for _, e := range gh.val.elems {
				c := e.member("command")
				if e.kind != '{' || c == nil || c.val.kind != '"' {
					continue
				}
				var s string
				if json.Unmarshal(data[c.val.start:c.val.end], &s) == nil && strings.HasSuffix(strings.TrimSpace(s), suffix) {
					found = append(found, charterEntry{group: g, entry: e, groupHooks: gh.val, command: c.val})
				}
			}
		}
	}
	st := newSplicer(data)

	if !present {
		if len(found) == 0 {
			return nil, nil
		}
		return st.removeEntry(root, hooksM, stopM, found[len(found)-1]), nil
	}
	switch {
	case len(found) > 1:
		return st.removeEntry(root, hooksM, stopM, found[len(found)-1]), nil
	case len(found) == 1:
		f := found[0]
		var cur string
		json.Unmarshal(data[f.command.start:f.command.end], &cur)
		if cur != hook.Command {
			return st.replace(f.command.start, f.command.end, jsonString(hook.Command)), nil
		}
		timeout := strconv.Itoa(hook.Timeout)
		tm := f.entry.member("timeout")
		if tm == nil {
			return st.appendMember(f.entry, "timeout", func(string, bool) string { return timeout }), nil
		}
		var n float64
		if json.Unmarshal(data[tm.val.start:tm.val.end], &n) != nil || n != float64(hook.Timeout) {
			return st.replace(tm.val.start, tm.val.end, timeout), nil
		}
		return nil, nil // 1920.0 is 1920: the user's spelling stays
	case stop != nil:
		return st.appendElem(stop, func(prefix string, multi bool) string {
			return st.render(charterGroup(hook), prefix, multi)
		}), nil
	case hooksM != nil:
		return st.appendMember(hooksM.val, "Stop", func(prefix string, multi bool) string {
			return st.render([]hookGroup{charterGroup(hook)}, prefix, multi)
		}), nil
	default:
		return st.appendMember(root, "hooks", func(prefix string, multi bool) string {
			v := struct {
				Stop []hookGroup `json:"Stop"`
			}{[]hookGroup{charterGroup(hook)}}
			return st.render(v, prefix, multi)
		}), nil
	}
}

// splicer edits one version of the bytes in the file's own style.
type splicer struct {
	data   []byte
	unit   string // one level of indentation
	nl     string // the file's line ending
	spaced bool   // "a": 1, "b": 2 rather than "a":1,"b":2
}

func newSplicer(data []byte) *splicer {
	s := &splicer{data: data, unit: "  ", nl: "\n"}
	if bytes.Contains(data, []byte("\r\n")) {
		s.nl = "\r\n"
	}
	s.spaced = colonSpaced(data)
	// The unit is the indentation of the first indented line.
	for _, line := range bytes.Split(data, []byte("\n"))[1:] {
		ws := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		if len(ws) > 0 && len(bytes.TrimSpace(line)) > 0 {
			s.unit = string(ws)
			break
		}
	}
	return s
}

func (s *splicer) replace(start, end int, text string) []byte {
	out := make([]byte, 0, len(s.data)-(end-start)+len(text))
	out = append(out, s.data[:start]...)
	out = append(out, text...)
	return append(out, s.data[end:]...)
}

func (s *splicer) render(v any, prefix string, multi bool) string {
	out := render(v, prefix, s.unit, multi, s.nl)
	if !multi && s.spaced {
		out = respace(out)
	}
	return out
}

// colonSpaced reports whether the file's first key is followed by ": ".
func colonSpaced(data []byte) bool {
	in, esc := false, false
	for i, c := range data {
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in && c == ':':
			return i+1 < len(data) && isSpace(data[i+1])
		}
	}
	return true
}

// respace puts a space after each ',' and ':' of compact JSON.
func respace(compact string) string {
	var b strings.Builder
	in, esc := false, false
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		b.WriteByte(c)
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in && (c == ',' || c == ':'):
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func render(v any, prefix, unit string, multi bool, nl string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if multi {
		enc.SetIndent(prefix, unit)
	}
	enc.Encode(v) // plain structs and strings always encode
	out := strings.TrimSuffix(b.String(), "\n")
	if nl != "\n" {
		out = strings.ReplaceAll(out, "\n", nl)
	}
	return out
}

func jsonString(s string) string { return render(s, "", "", false, "\n") }

// leading returns the whitespace before offset back to the previous
// non-space byte (the delimiter), and whether the file puts this element
// on its own line.
func (s *splicer) leading(off int) (string, bool) {
	i := off
	for i > 0 && isSpace(s.data[i-1]) {
		i--
	}
	ws := string(s.data[i:off])
	return ws, strings.Contains(ws, "\n")
}

// indentOf is the indentation of the line holding off.
func (s *splicer) indentOf(off int) string {
	start := bytes.LastIndexByte(s.data[:off], '\n') + 1
	line := s.data[start:]
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}

// multiline tells whether new text in an empty container goes on lines of
// its own: yes unless the whole document is written on one line (an empty
// object counts as not yet styled).
func (s *splicer) multiline() bool {
	t := bytes.TrimSpace(s.data)
	return bytes.Contains(t, []byte("\n")) || bytes.Equal(t, []byte("{}"))
}

// insert puts text as the new last child of container c (array or object):
// after the last child with a comma and the same leading whitespace, or
// alone inside an empty container.
func (s *splicer) insert(c *jnode, last int, text func(prefix string, multi bool) string) []byte {
	if last >= 0 {
		ws, multi := s.leading(last)
		prefix := ""
		if multi {
			prefix = ws[strings.LastIndexByte(ws, '\n')+1:]
		}
		if ws == "" && s.spaced {
			ws = " "
		}
		end := c.childEnd(c.count() - 1)
		return s.replace(end, end, ","+ws+text(prefix, multi))
	}
	if !s.multiline() {
		return s.replace(c.start+1, c.end-1, text("", false))
	}
	outer := s.indentOf(c.start)
	inner := outer + s.unit
	return s.replace(c.start+1, c.end-1, s.nl+inner+text(inner, true)+s.nl+outer)
}

func (s *splicer) appendElem(arr *jnode, text func(string, bool) string) []byte {
	last := -1
	if n := len(arr.elems); n > 0 {
		last = arr.elems[n-1].start
	}
	return s.insert(arr, last, text)
}

func (s *splicer) appendMember(obj *jnode, key string, value func(string, bool) string) []byte {
	last, colon := -1, ": "
	if n := len(obj.members); n > 0 {
		m := obj.members[n-1]
		last = m.keyStart
		colon = string(s.data[m.keyEnd:m.val.start]) // the file's own ":" spacing
	}
	return s.insert(obj, last, func(prefix string, multi bool) string {
		c := colon
		if last < 0 && !multi {
			c = ":"
		}
		return jsonString(key) + c + value(prefix, multi)
	})
}

// removeChild deletes child i of container c with the separator on one
// side, so the neighbours keep their spacing; the only child leaves the
// container empty ([] or {}).
func (s *splicer) removeChild(c *jnode, i int) []byte {
	n := c.count()
	switch {
	case n == 1:
		return s.replace(c.start+1, c.end-1, "")
	case i < n-1:
		return s.replace(c.childStart(i), c.childStart(i+1), "")
	default:
		return s.replace(c.childEnd(i-1), c.childEnd(i), "")
	}
}

// removeEntry removes one charter entry, and the group, Stop list and
// hooks object it would leave empty.
func (s *splicer) removeEntry(root *jnode, hooksM, stopM *jmember, e charterEntry) []byte {
	if len(e.groupHooks.elems) > 1 {
		return s.removeChild(e.groupHooks, index(e.groupHooks.elems, e.entry))
	}
	stop := stopM.val
	if len(stop.elems) > 1 {
		return s.removeChild(stop, index(stop.elems, e.group))
	}
	hooks := hooksM.val
	if len(hooks.members) > 1 {
		return s.removeChild(hooks, hooks.memberIndex(stopM))
	}
	return s.removeChild(root, root.memberIndex(hooksM))
}

func index(list []*jnode, n *jnode) int {
	for i, x := range list {
		if x == n {
			return i
		}
	}
	return -1
}

// HookCommand is the command of charter's Stop hook entry (SPEC §10): the
// charter binary's absolute path, then --config-root ROOT when the scope
// is a host root (root != ""), then HookCommandSuffix. Claude Code runs a
// hook command through a shell — sh on macOS and Linux, Git Bash on
// Windows (PowerShell when Git Bash is missing) — so words that need it
// are single-quoted. On Windows pass paths with forward slashes
// (C:/Users/…): a path without spaces then needs no quotes in any of
// those shells.
func HookCommand(binary, root string) string {
	return hookCommand(binary, root, HookCommandSuffix)
}

func hookCommand(binary, root, suffix string) string {
	words := []string{shellQuote(binary)}
	if root != "" {
		words = append(words, "--config-root", shellQuote(root))
	}
	return strings.Join(append(words, suffix), " ")
}

func shellQuote(s string) string {
	plain := func(c rune) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_@%+=:,./-", c)
	}
	if s != "" && strings.IndexFunc(s, func(c rune) bool { return !plain(c) }) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
