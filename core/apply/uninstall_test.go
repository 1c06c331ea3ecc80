package apply

import (
	"testing"

	"github.com/agentkit/charter/core/gates"
)

// Adding charter's MCP entry and taking it out gives the file back byte
// for byte; a file charter's entry alone made is emptied (then deleted).
func TestRemoveMCPJSONUndoesMerge(t *testing.T) {
	for _, orig := range []string{
		"{\n  \"mcpServers\": {\n    \"other\": {\"command\": \"x\"}\n  }\n}\n",
		"{\"mcpServers\": {\"other\": {\"command\": \"x\"}}, \"k\": 1}",
		"{\n  \"k\": true\n}\n",
	} {
		merged, err := MergeMCPJSON([]byte(orig), ProjectMCPEntry())
		if err != nil {
			t.Fatal(err)
		}
		back, err := RemoveMCPJSON(merged)
		if err != nil {
			t.Fatal(err)
		}
		if string(back) != orig {
			t.Errorf("merge then remove of %q gave %q", orig, back)
		}
	}
	made, _ := MergeMCPJSON(nil, ProjectMCPEntry())
	back, err := RemoveMCPJSON(made)
	if err != nil {
		t.Fatal(err)
	}
	if emptiedOrWhole(made, back) != nil {
		t.Errorf("a .mcp.json charter made is not emptied: %q", back)
	}
	if _, err := RemoveMCPJSON([]byte("[1]")); err == nil {
		t.Error("a .mcp.json that is no object is not refused")
	}
	if same := emptiedOrWhole([]byte("{}"), []byte("{}")); same == nil {
		t.Error("a user's own empty object is deleted")
	}
}

// A hooks.json charter made goes; one with the user's own hooks keeps them.
func TestHookRemovalKeepsOthers(t *testing.T) {
	hook := StopHook{Command: "/bin/charter gate hook codex-stop", Timeout: 1920}
	made, err := EnsureStopHook(nil, gates.CodexStop, hook, true)
	if err != nil {
		t.Fatal(err)
	}
	tg := hookRemoval("codex", LevelUser, "hooks.json", gates.CodexStop)
	if parts, err := tg.edit(made); err != nil || parts != nil {
		t.Errorf("hooks.json charter made: %q, %v; want no file", parts, err)
	}
	own := "{\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}]\n  }\n}\n"
	with, err := EnsureStopHook([]byte(own), gates.CodexStop, StopHook{Command: "/bin/charter " + gates.CodexStop.Suffix(), Timeout: 5}, true)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := tg.edit(with)
	if err != nil || string(join(parts)) != own {
		t.Errorf("the user's hooks.json came back as %q (%v), want %q", join(parts), err, own)
	}
}
