package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/gates"
)

// Whatever the file, EnsureStopHook refuses it with a AgentSettingsError or
// yields valid JSON with exactly the wanted charter entries, idempotently,
// and means the same as before outside charter's entry.
func FuzzEnsureStopHook(f *testing.F) {
	for _, name := range []string{"settings.json", "tabs-no-stop.json", "compact.json", "crlf.json", "settings.added.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", "claude", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		"", "{}", "[]", `{"hooks":{}}`, `{"hooks":{"Stop":[]}}`, `{"hooks":{"Stop":[{"hooks":[{"command":"charter gate hook claude-stop"}]}]}}`,
		`{"hooks":1}`, `{"a":1,"a":2,"hooks":{"Stop":[],"Stop":[{"hooks":[]}]}}`, "{\"x\":\"\\\"}\"}",
	} {
		f.Add([]byte(s))
	}
	const cmd = "/bin/charter gate hook claude-stop"
	hook := StopHook{Command: cmd, Timeout: 1920}
	f.Fuzz(func(t *testing.T, data []byte) {
		added, err := EnsureStopHook(data, gates.ClaudeStop, hook, true)
		if err != nil {
			var se *AgentSettingsError
			if !errors.As(err, &se) {
				t.Fatalf("error of the wrong type %T: %v", err, err)
			}
			if _, err2 := EnsureStopHook(data, gates.ClaudeStop, hook, false); err2 == nil {
				t.Fatalf("add refused (%v) but remove accepted", err)
			}
			return
		}
		entries := func(b []byte) (n int, doc any) {
			b = bytes.TrimPrefix(b, bom)
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatalf("invalid JSON %v:\n%q", err, b)
			}
			return len(charterHooks(doc)), doc
		}
		_, doc := entries(added)
		if hs := charterHooks(doc); len(hs) != 1 || hs[0]["command"] != cmd || hs[0]["timeout"] != float64(hook.Timeout) {
			t.Fatalf("charter entries after add %v:\n%s", hs, added)
		}
		if again, _ := EnsureStopHook(added, gates.ClaudeStop, hook, true); !bytes.Equal(again, added) {
			t.Fatalf("add is not idempotent:\n%s\n%s", added, again)
		}
		removed, err := EnsureStopHook(added, gates.ClaudeStop, hook, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(bytes.TrimSpace(bytes.TrimPrefix(data, bom))) == 0 {
			return
		}
		direct, err := EnsureStopHook(data, gates.ClaudeStop, hook, false)
		if err != nil {
			t.Fatal(err)
		}
		_, a := entries(removed)
		_, b := entries(direct)
		if n, _ := entries(direct); n != 0 || !reflect.DeepEqual(normalize(a), normalize(b)) {
			t.Fatalf("meaning changed:\n%s\n%s", removed, direct)
		}
	})
}

// charterHooks lists charter's entries in hooks.Stop.
func charterHooks(doc any) []map[string]any {
	var out []map[string]any
	root, _ := doc.(map[string]any)
	hooks, _ := root["hooks"].(map[string]any)
	stop, _ := hooks["Stop"].([]any)
	for _, g := range stop {
		gm, _ := g.(map[string]any)
		hs, _ := gm["hooks"].([]any)
		for _, h := range hs {
			hm, _ := h.(map[string]any)
			if c, ok := hm["command"].(string); ok && gates.IsCharterHook(c) {
				out = append(out, hm)
			}
		}
	}
	return out
}

// normalize drops an empty Stop list and an empty hooks object, which mean
// nothing to Claude Code.
func normalize(doc any) any {
	root, _ := doc.(map[string]any)
	if hooks, ok := root["hooks"].(map[string]any); ok {
		if stop, ok := hooks["Stop"].([]any); ok && len(stop) == 0 {
			delete(hooks, "Stop")
		}
		if len(hooks) == 0 {
			delete(root, "hooks")
		}
	}
	return doc
}

// In hooks.json, the Codex kind owns only the entries ending with its own
// subcommand: a claude-stop entry someone put there is not charter's Codex
// entry, and stays.
func TestCodexEnsureStopHook(t *testing.T) {
	const codexCmd = "/usr/local/bin/charter gate hook codex-stop"
	hook := StopHook{Command: codexCmd, Timeout: 900}
	in := `{
  "hooks": {
    "Stop": [
      {"hooks": [{"type": "command", "command": "/usr/local/bin/charter gate hook claude-stop"}]},
      {"hooks": [{"type": "command", "command": "/old/charter gate hook codex-stop", "timeout": 900}]}
    ]
  }
}
`
	out, err := EnsureStopHook([]byte(in), gates.CodexStop, hook, true)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(in, "/old/charter gate hook codex-stop", codexCmd, 1); string(out) != want {
		t.Fatalf("updated:\n%s\nwant\n%s", out, want)
	}
	out, err = EnsureStopHook(out, gates.CodexStop, StopHook{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{
  "hooks": {
    "Stop": [
      {"hooks": [{"type": "command", "command": "/usr/local/bin/charter gate hook claude-stop"}]}
    ]
  }
}
`; string(out) != want {
		t.Fatalf("removed:\n%s\nwant\n%s", out, want)
	}
	if _, err := EnsureStopHook(nil, gates.CodexStop, StopHook{Command: gates.HookCommand("/b", ""), Timeout: 900}, true); err == nil {
		t.Error("a claude-stop command went into the Codex entry")
	}
	// A fresh file and back.
	fresh, err := EnsureStopHook(nil, gates.CodexStop, hook, true)
	if err != nil || !strings.Contains(string(fresh), `"command": "`+codexCmd+`"`) {
		t.Fatalf("fresh %s %v", fresh, err)
	}
	if gone, err := EnsureStopHook(fresh, gates.CodexStop, StopHook{}, false); err != nil || strings.TrimSpace(string(gone)) != "{}" {
		t.Fatalf("removed from a fresh file: %q %v", gone, err)
	}
}
