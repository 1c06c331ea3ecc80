package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/jsonedit"
)

// MCPServerName is the name charter registers its MCP server under with
// each agent.
const MCPServerName = "charter"

// MCPEntry is how an agent starts charter's MCP server: the stdio entry of
// Claude Code's mcpServers and of Codex's mcp_servers.
type MCPEntry struct {
	Command string
	Args    []string
}

// ProjectMCPEntry is the entry for a project's .mcp.json, which the team
// shares: charter found on PATH, since each machine keeps it elsewhere.
func ProjectMCPEntry() MCPEntry { return MCPEntry{Command: core.Name, Args: []string{"mcp"}} }

// ClaudeMCPServer is one server in Claude Code's mcpServers, in the key
// order `claude mcp add` writes.
type ClaudeMCPServer struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// Claude is e as a server of Claude Code's mcpServers.
func (e MCPEntry) Claude() ClaudeMCPServer {
	args := e.Args
	if args == nil {
		args = []string{}
	}
	return ClaudeMCPServer{Type: "stdio", Command: e.Command, Args: args}
}

// MCPJSONError is a .mcp.json that charter cannot edit safely. Nothing is
// written: guessing could lose the user's other servers.
type MCPJSONError struct {
	Line int
	Msg  string
}

func (e *MCPJSONError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s (fix the file by hand; charter will not overwrite it)", e.Line, e.Msg)
	}
	return e.Msg + " (fix the file by hand; charter will not overwrite it)"
}

// Code is the error's code in JSON error bodies.
func (e *MCPJSONError) Code() string { return core.CodeMalformedMCPJSON }

// MergeMCPJSON adds charter's entry under "mcpServers" in a project's
// .mcp.json, or brings it up to date. data is the file as it is (nil or
// empty when it does not exist).
//
// The edit splices bytes (see jsonedit): only charter's own keys change,
// and every other server, key, value and byte of spacing stays as the user
// wrote it. Inside charter's entry, keys charter does not own (say "env")
// are kept. A duplicate key on the way is an error: which one an agent
// reads is anyone's guess. When the entry is already current, data comes
// back unchanged.
func MergeMCPJSON(data []byte, e MCPEntry) ([]byte, error) {
	want := e.Claude()
	if len(bytes.TrimSpace(data)) == 0 {
		doc := struct {
			Servers map[string]ClaudeMCPServer `json:"mcpServers"`
		}{map[string]ClaudeMCPServer{MCPServerName: want}}
		return []byte(jsonedit.Encode(doc, "", "  ", true, "\n") + "\n"), nil
	}
	for round := 0; round < 10; round++ { // at most one edit per owned key
		next, err := mergeMCPOnce(data, want)
		if err != nil || next == nil {
			return data, err
		}
		data = next
	}
	return nil, errors.New("merge .mcp.json: the edits do not settle")
}

// mergeMCPOnce makes the first edit needed, or returns nil when charter's
// entry is current.
func mergeMCPOnce(data []byte, want ClaudeMCPServer) ([]byte, error) {
	fail := func(off int, format string, args ...any) error {
		line, _ := jsonedit.Position(data, off)
		return &MCPJSONError{Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	d, err := jsonedit.Open(data, func(off int, msg string) error { return fail(off, "%s", msg) })
	if err != nil {
		return nil, err
	}
	// value renders a new value as `claude mcp add` would on one line, or
	// indented like its neighbours.
	value := func(v any) jsonedit.Value {
		return func(prefix string, multi bool) string {
			if multi {
				return d.Render(v, prefix, true)
			}
			return jsonedit.Spaced(jsonedit.Encode(v, "", "", false, "\n"))
		}
	}
	object := func(n *jsonedit.Node, what string) error {
		if n.Kind != '{' {
			return fail(n.Start, "%s is not a JSON object", what)
		}
		if dup := n.Duplicate(); dup != nil {
			return fail(dup.KeyStart, "key %q appears twice in %s", dup.Key, what)
		}
		return nil
	}
	top := d.Root
	if err := object(top, "the file"); err != nil {
		return nil, err
	}
	sm := top.Member("mcpServers")
	if sm == nil {
		return d.AppendMember(top, "mcpServers", value(map[string]ClaudeMCPServer{MCPServerName: want})), nil
	}
	if err := object(sm.Val, `"mcpServers"`); err != nil {
		return nil, err
	}
	cm := sm.Val.Member(MCPServerName)
	if cm == nil {
		return d.AppendMember(sm.Val, MCPServerName, value(want)), nil
	}
	// A value on lines of its own stays so; an object replacing a scalar
	// opens up unless the whole file is on one line.
	replace := func(m *jsonedit.Member, v any, object bool) []byte {
		multi := bytes.IndexByte(d.Raw(m.Val), '\n') >= 0 || object && bytes.IndexByte(d.Data, '\n') >= 0
		return d.Replace(m.Val, value(v)(d.IndentOf(m.KeyStart), multi))
	}
	if cm.Val.Kind != '{' {
		return replace(cm, want, true), nil
	}
	if err := object(cm.Val, `"mcpServers"."charter"`); err != nil {
		return nil, err
	}
	for _, o := range []struct {
		key string
		v   any
	}{{"type", want.Type}, {"command", want.Command}, {"args", want.Args}} {
		m := cm.Val.Member(o.key)
		switch {
		case m == nil:
			return d.AppendMember(cm.Val, o.key, value(o.v)), nil
		case !sameJSON(d.Raw(m.Val), o.v):
			return replace(m, o.v, false), nil
		}
	}
	return nil, nil
}

// sameJSON tells whether raw means v, whatever its spelling.
func sameJSON(raw []byte, v any) bool {
	var a, b any
	enc, _ := json.Marshal(v) // strings and string lists always encode
	return json.Unmarshal(raw, &a) == nil && json.Unmarshal(enc, &b) == nil && reflect.DeepEqual(a, b)
}
