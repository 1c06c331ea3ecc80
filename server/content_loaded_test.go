package server

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/loaded"
	"github.com/agentkit/charter/core/projection"
)

// TestContentLoaded: GET /content carries, for each rule Claude gets,
// what its InstructionsLoaded hook reported; no loaded field where no
// agent reports loading (a skill).
func TestContentLoaded(t *testing.T) {
	e, r, dir := contentEnv(t)
	lock := projection.Record{Version: 1, Files: []projection.Recorded{
		{Path: ".claude/rules/go-style.md", SHA256: strings.Repeat("a", 64), Kind: "rule", Item: "go-style", Agent: "claude"},
	}}
	coretest.WriteFile(t, filepath.Join(dir, ".charter", "projection.lock"), string(lock.Encode()))
	payload := fmt.Sprintf(`{"session_id":"s1","transcript_path":"/t.jsonl","cwd":%q,"permission_mode":"default",`+
		`"hook_event_name":"InstructionsLoaded","file_path":%q,"memory_type":"Project","load_reason":"path_glob_match"}`,
		dir, filepath.Join(dir, ".claude", "rules", "go-style.md"))
	in, err := loaded.ReadInput(strings.NewReader(payload))
	if err != nil {
		t.Fatal(err)
	}
	if err := loaded.Record(context.Background(), e.sys, filepath.Join(e.scope.Path, "state"), "claude", in); err != nil {
		t.Fatal(err)
	}
	rp := r.do("GET", "api/v1/content", "")
	if rp.status != 200 {
		t.Fatalf("GET content: %d %s", rp.status, rp.body)
	}
	got := map[string]any{}
	for _, it := range rp.json(t)["items"].([]any) {
		m := it.(map[string]any)
		got[m["name"].(string)] = m["loaded"]
	}
	if l, ok := got["go-style"].(map[string]any); !ok || l["state"] != "loaded" || l["agent"] != "claude" || l["reason"] != "path_glob_match" || l["at"] == nil {
		t.Errorf("go-style loaded: %v", got["go-style"])
	}
	for _, name := range []string{"tone", "mandated"} {
		if l, ok := got[name].(map[string]any); !ok || l["state"] != "never" {
			t.Errorf("%s loaded: %v", name, got[name])
		}
	}
	if v, ok := got["review"]; !ok || v != nil {
		t.Errorf("a skill has no loaded field: %v (present %v)", v, ok)
	}
}
