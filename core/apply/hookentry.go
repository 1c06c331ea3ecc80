package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/jsonedit"
)

// AgentSettingsError is an agent's hook file (Claude Code's settings.json,
// Codex's hooks.json) that cannot be edited safely. Line and Column are
// 1-based; 0 when the problem has no position.
type AgentSettingsError struct {
	Line, Column int
	Msg          string
}

// Code names the error for the CLI's exit table and the HTTP status table.
func (e *AgentSettingsError) Code() string { return core.CodeMalformedAgentSettings }

func (e *AgentSettingsError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
	}
	return e.Msg
}

// StopHook is charter's Stop hook entry: the command the agent runs and
// its "timeout" in seconds (gates.HookKind.Command and gates.HookTimeout
// make them).
type StopHook struct {
	Command string
	Timeout int
}

// EnsureStopHook returns the hook file data of kind's agent (Claude Code's
// settings.json, Codex's hooks.json: both hold the same "hooks" object)
// with charter's Stop hook entry present, with exactly hook's command and
// timeout, or absent. Claude Code's hooks reference gives the shape:
//
//	{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "…", "timeout": 1920}]}]}}
//
// Charter's entry is the hook whose command ends with kind.Suffix(). The
// edit splices bytes (see jsonedit): other keys, their order, the user's
// own hooks, number spellings and the indentation are kept. When nothing
// needs to change, data is returned as is.
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
//     left empty: an empty one means nothing to the agent, and it can
//     only be left empty when charter's entry was all it held. So adding
//     and then removing the entry gives back the original bytes.
//
// Invalid JSON, a top level that is not an object, "hooks" that is not an
// object or "Stop" that is not a list is an *AgentSettingsError, and
// nothing is changed. Of duplicate keys the last counts, as in Claude Code.
func EnsureStopHook(data []byte, kind gates.HookKind, hook StopHook, present bool) ([]byte, error) {
	return EnsureEventHook(data, "Stop", kind.Suffix(), hook, present)
}

// EnsureEventHook is EnsureStopHook for the hooks list of any event (Claude
// Code's InstructionsLoaded): charter's entry there is the hook whose
// command ends with suffix.
func EnsureEventHook(data []byte, event, suffix string, hook StopHook, present bool) ([]byte, error) {
	if present && !strings.HasSuffix(strings.TrimSpace(hook.Command), suffix) {
		return nil, fmt.Errorf("hook command %q does not end with %q", hook.Command, suffix)
	}
	if present && hook.Timeout <= 0 {
		return nil, fmt.Errorf("hook timeout %d is not a positive number of seconds", hook.Timeout)
	}
	bomLen := 0
	if bytes.HasPrefix(data, bom) {
		bomLen = len(bom)
	}
	body := data[bomLen:]
	if len(bytes.TrimSpace(body)) == 0 {
		if !present {
			return data, nil
		}
		return []byte(jsonedit.Encode(map[string]any{"hooks": eventGroups(event, hook)}, "", "  ", true, "\n") + "\n"), nil
	}
	changed := false
	for round := 0; ; round++ {
		if round > 1000 {
			return nil, errors.New("too many charter hook entries to edit")
		}
		next, err := editHookOnce(body, event, hook, suffix, present)
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

// hookGroup and hookEntry render charter's entry in key order.

type hookGroup struct {
	Hooks []hookEntry `json:"hooks"`
}

type hookEntry struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

// eventGroups is a hooks object holding event's list with charter's group.
func eventGroups(event string, hook StopHook) map[string][]hookGroup {
	return map[string][]hookGroup{event: {charterGroup(hook)}}
}

func charterGroup(hook StopHook) hookGroup {
	return hookGroup{Hooks: []hookEntry{{Type: "command", Command: hook.Command, Timeout: hook.Timeout}}}
}

func hookFail(data []byte) jsonedit.Fail {
	return func(off int, msg string) error {
		line, col := jsonedit.Position(data, off)
		return &AgentSettingsError{Line: line, Column: col, Msg: msg}
	}
}

// charterHook locates one charter entry: the entry object in its group's
// hooks list, in its group object in Stop.
type charterHook struct {
	group, entry *jsonedit.Node
	groupHooks   *jsonedit.Node // the group's hooks list
	command      *jsonedit.Node // the entry's command string
}

// editHookOnce makes the first edit needed and returns the new bytes, or
// nil when the file already is as wanted.
func editHookOnce(data []byte, event string, hook StopHook, suffix string, present bool) ([]byte, error) {
	fail := hookFail(data)
	d, err := jsonedit.Open(data, func(off int, msg string) error { return fail(off, "invalid JSON: "+msg) })
	if err != nil {
		return nil, err
	}
	root := d.Root
	if root.Kind != '{' {
		return nil, &AgentSettingsError{Msg: "the settings are not a JSON object"}
	}
	hooksM := root.Member("hooks")
	var stop *jsonedit.Node
	var stopM *jsonedit.Member
	if hooksM != nil {
		if hooksM.Val.Kind != '{' {
			return nil, fail(hooksM.Val.Start, `"hooks" is not an object; fix it by hand, then run again`)
		}
		if stopM = hooksM.Val.Member(event); stopM != nil {
			if stop = stopM.Val; stop.Kind != '[' {
				return nil, fail(stop.Start, `"hooks.`+event+`" is not a list; fix it by hand, then run again`)
			}
		}
	}
	found := findCharterHooks(d, stop, suffix)
	if !present || len(found) > 1 {
		if len(found) == 0 {
			return nil, nil
		}
		return removeHook(d, hooksM, stopM, found[len(found)-1]), nil
	}
	switch {
	case len(found) == 1:
		return updateHook(d, found[0], hook), nil
	case stop != nil:
		return d.AppendElem(stop, func(prefix string, multi bool) string {
			return d.Render(charterGroup(hook), prefix, multi)
		}), nil
	case hooksM != nil:
		return d.AppendMember(hooksM.Val, event, func(prefix string, multi bool) string {
			return d.Render([]hookGroup{charterGroup(hook)}, prefix, multi)
		}), nil
	default:
		return d.AppendMember(root, "hooks", func(prefix string, multi bool) string {
			return d.Render(eventGroups(event, hook), prefix, multi)
		}), nil
	}
}

// findCharterHooks finds charter's entries in the Stop list (nil: none).
func findCharterHooks(d *jsonedit.Doc, stop *jsonedit.Node, suffix string) []charterHook {
	var found []charterHook
	if stop == nil {
		return nil
	}
	for _, g := range stop.Elems {
		gh := g.Member("hooks")
		if gh == nil || gh.Val.Kind != '[' {
			continue
		}
		for _, e := range gh.Val.Elems {
			c := e.Member("command")
			if c == nil || c.Val.Kind != '"' {
				continue
			}
			var s string
			if json.Unmarshal(d.Raw(c.Val), &s) == nil && strings.HasSuffix(strings.TrimSpace(s), suffix) {
				found = append(found, charterHook{group: g, entry: e, groupHooks: gh.Val, command: c.Val})
			}
		}
	}
	return found
}

// StopHookCommands returns the command of each charter entry of kind in
// a hook file; none when the file holds none or is not JSON of the
// documented shape.
func StopHookCommands(data []byte, kind gates.HookKind) []string {
	d, err := jsonedit.Open(bytes.TrimPrefix(data, bom), func(int, string) error { return errors.New("invalid") })
	if err != nil || d.Root.Kind != '{' {
		return nil
	}
	h := d.Root.Member("hooks")
	if h == nil || h.Val.Kind != '{' {
		return nil
	}
	stop := h.Val.Member("Stop")
	if stop == nil || stop.Val.Kind != '[' {
		return nil
	}
	var out []string
	for _, f := range findCharterHooks(d, stop.Val, kind.Suffix()) {
		var s string
		json.Unmarshal(d.Raw(f.command), &s)
		out = append(out, s)
	}
	return out
}

// updateHook brings charter's one entry to hook's command and timeout, one
// field per call; nil when it is current.
func updateHook(d *jsonedit.Doc, f charterHook, hook StopHook) []byte {
	var cur string
	json.Unmarshal(d.Raw(f.command), &cur)
	if cur != hook.Command {
		return d.Replace(f.command, jsonedit.Encode(hook.Command, "", "", false, "\n"))
	}
	timeout := strconv.Itoa(hook.Timeout)
	tm := f.entry.Member("timeout")
	if tm == nil {
		return d.AppendMember(f.entry, "timeout", func(string, bool) string { return timeout })
	}
	var n float64
	if json.Unmarshal(d.Raw(tm.Val), &n) != nil || n != float64(hook.Timeout) {
		return d.Replace(tm.Val, timeout)
	}
	return nil // 1920.0 is 1920: the user's spelling stays
}

// removeHook removes one charter entry, and the group, Stop list and hooks
// object it would leave empty.
func removeHook(d *jsonedit.Doc, hooksM, stopM *jsonedit.Member, e charterHook) []byte {
	if len(e.groupHooks.Elems) > 1 {
		return d.Remove(e.groupHooks, e.groupHooks.ElemIndex(e.entry))
	}
	if stop := stopM.Val; len(stop.Elems) > 1 {
		return d.Remove(stop, stop.ElemIndex(e.group))
	}
	if hooks := hooksM.Val; len(hooks.Members) > 1 {
		return d.Remove(hooks, hooks.MemberIndex(stopM))
	}
	return d.Remove(d.Root, d.Root.MemberIndex(hooksM))
}
