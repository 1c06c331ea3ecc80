package apply

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/loaded"
)

var loadedHook = StopHook{Command: loaded.HookCommand("charter", ""), Timeout: loaded.HookTimeout}

func ensureLoaded(t *testing.T, data []byte, present bool) []byte {
	t.Helper()
	out, err := EnsureEventHook(data, loaded.HookEvent, loaded.HookSuffix, loadedHook, present)
	if err != nil {
		t.Fatal(err)
	}
	if len(bytes.TrimSpace(out)) > 0 && !json.Valid(out) {
		t.Fatalf("invalid JSON:\n%s", out)
	}
	return out
}

// The InstructionsLoaded entry goes beside charter's Stop entry and the
// user's hooks, and removing it gives back the bytes it was added to; the
// Stop entry is not taken for it, nor it for the Stop entry.
func TestLoadedHookBesideStop(t *testing.T) {
	in := []byte("{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"InstructionsLoaded\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"log-it\"}]}]\n  }\n}\n")
	withStop := ensure(t, in, hookCmd, true)
	both := ensureLoaded(t, withStop, true)
	var doc struct {
		Hooks map[string][]struct {
			Hooks []StopHook `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(both, &doc); err != nil {
		t.Fatal(err)
	}
	il := doc.Hooks["InstructionsLoaded"]
	if len(il) != 2 || il[1].Hooks[0].Command != "charter gate hook claude-loaded" || il[1].Hooks[0].Timeout != loaded.HookTimeout {
		t.Fatalf("InstructionsLoaded: %+v\n%s", il, both)
	}
	if again := ensureLoaded(t, both, true); !bytes.Equal(again, both) {
		t.Errorf("a current entry was edited:\n%s", again)
	}
	if s := ensure(t, both, hookCmd, true); !bytes.Equal(s, both) {
		t.Error("the Stop edit touched the loaded entry")
	}
	if got := ensureLoaded(t, both, false); !bytes.Equal(got, withStop) {
		t.Errorf("removing the entry left:\n%s\nwant:\n%s", got, withStop)
	}
	if got := StopHookCommands(both, gates.ClaudeStop); len(got) != 1 || got[0] != hookCmd {
		t.Errorf("Stop commands %q", got)
	}
	// Alone in an empty file, and gone again without a trace.
	alone := ensureLoaded(t, nil, true)
	if !strings.Contains(string(alone), `"InstructionsLoaded": [`) {
		t.Errorf("empty file:\n%s", alone)
	}
	if got := ensureLoaded(t, []byte("{\"a\": 1}\n"), true); string(ensureLoaded(t, got, false)) != "{\"a\": 1}\n" {
		t.Errorf("round trip:\n%s", got)
	}
	if _, err := EnsureEventHook([]byte(`{"hooks": {"InstructionsLoaded": {}}}`), loaded.HookEvent, loaded.HookSuffix, loadedHook, true); err == nil ||
		!strings.Contains(err.Error(), `"hooks.InstructionsLoaded" is not a list`) {
		t.Errorf("a non-list event: %v", err)
	}
}
