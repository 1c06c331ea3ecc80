package apply

import (
	"bytes"
	"fmt"

	"github.com/agentkit/charter/core/jsonedit"
)

// RemoveMCPJSON takes charter's entry out of a project's .mcp.json, and
// the "mcpServers" object when charter's entry was all it held; every
// other byte stays. data comes back unchanged when it holds no entry of
// charter's.
func RemoveMCPJSON(data []byte) ([]byte, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return data, nil
	}
	fail := func(off int, msg string) error {
		line, _ := jsonedit.Position(data, off)
		return &MCPJSONError{Line: line, Msg: msg}
	}
	d, err := jsonedit.Open(data, fail)
	if err != nil {
		return nil, err
	}
	if d.Root.Kind != '{' {
		return nil, fail(d.Root.Start, "the file is not a JSON object")
	}
	sm := d.Root.Member("mcpServers")
	if sm == nil || sm.Val.Kind != '{' {
		return data, nil
	}
	cm := sm.Val.Member(MCPServerName)
	if cm == nil {
		return data, nil
	}
	if dup := sm.Val.Duplicate(); dup != nil && dup.Key == MCPServerName {
		return nil, fail(dup.KeyStart, fmt.Sprintf("key %q appears twice in \"mcpServers\"", dup.Key))
	}
	if len(sm.Val.Members) > 1 {
		return d.Remove(sm.Val, sm.Val.MemberIndex(cm)), nil
	}
	return d.Remove(d.Root, d.Root.MemberIndex(sm)), nil
}
