package agenttest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// codexHookHash is the trusted_hash Codex 0.169 stores in config.toml when
// the user reviews a command hook (codex-rs/hooks/src/engine/discovery.rs,
// command_hook_hash): SHA-256 of the compact JSON, keys sorted, of
// {event_name, hooks: [the handler]}, the handler normalized to type,
// command, timeout (600 when unset), async; an absent matcher (Stop has
// none) and statusMessage are left out, as TOML has no null.
func codexHookHash(event, command string, timeout int, async bool) string {
	identity := map[string]any{"event_name": event, "hooks": []any{map[string]any{
		"type": "command", "command": command, "timeout": timeout, "async": async}}}
	var b bytes.Buffer
	enc := json.NewEncoder(&b) // sorts map keys; serde_json escapes no HTML
	enc.SetEscapeHTML(false)
	enc.Encode(identity)
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// codexStopHooks are the Stop handlers of a hooks.json, in order.
func codexStopHooks(t *testing.T, path string) []struct {
	Command string
	Timeout int
	Async   bool
} {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Hooks struct {
			Stop []struct {
				Hooks []struct {
					Command string
					Timeout int
					Async   bool
				}
			}
		}
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(f.Hooks.Stop) != 1 || len(f.Hooks.Stop[0].Hooks) != 1 {
		t.Fatalf("%s: want one Stop group with one handler (charter's), got\n%s", path, data)
	}
	return f.Hooks.Stop[0].Hooks
}

// trustCodexHook records in config.toml that the user reviewed the Stop
// handler of hooks.json, as Codex's TUI does: [hooks.state."PATH:stop:0:0"].
func trustCodexHook(t *testing.T, w world, hooksJSON string) {
	t.Helper()
	h := codexStopHooks(t, hooksJSON)[0]
	if h.Timeout == 0 {
		h.Timeout = 600
	}
	cfg := filepath.Join(w.home, ".codex", "config.toml")
	old, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	state := "\n[hooks.state." + strconv.Quote(hooksJSON+":stop:0:0") + "]\ntrusted_hash = " +
		strconv.Quote(codexHookHash("stop", h.Command, h.Timeout, h.Async)) + "\n"
	write(t, filepath.Join(w.home, ".codex"), "config.toml", string(old)+state)
}

// TestCodexStopHook: charter's Stop hook in $CODEX_HOME/hooks.json, with a
// gate that fails. Until the user reviews it, `codex exec` skips the hook
// without a word: the model gets one request. Once config.toml holds the
// hook's trusted_hash, the hook blocks the stop and Codex hands the gate's
// failure to the model in one more request, then lets the agent stop
// (gates.max_blocks 1). With the project's .codex/hooks.json reviewed too,
// the failure still reaches the model once per blocked stop.
func TestCodexStopHook(t *testing.T) {
	// Only the gate's output has this: charter's block names the command,
	// whose text has %s in its place.
	const gateOut = "GATE-FAILED-8e1c"
	bin(t, "codex")
	w := newWorld(t)
	env := codexEnv(w)
	charterRun := func(t *testing.T, args ...string) {
		t.Helper()
		if out, err := run(t, w.project, env, charter(t), args...); err != nil {
			t.Fatalf("charter %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	charterRun(t, "settings", "set", "gates.tests.command", "printf 'GATE-%s-8e1c\\n' FAILED; exit 1")
	charterRun(t, "settings", "set", "gates.lint.required", "false")
	charterRun(t, "settings", "set", "gates.max_blocks", "1")
	charterRun(t, "apply", "--agent", "codex")
	m := newMock(t)
	writeCodexConfig(t, w, m)
	// turns runs codex exec and returns the requests of that run.
	turns := func(t *testing.T) []Request {
		before := len(responsesTurns(m))
		runCodex(t, w, "hi")
		return responsesTurns(m)[before:]
	}
	blocked := func(t *testing.T, turns []Request) {
		t.Helper()
		if len(turns) != 2 {
			t.Fatalf("%d requests, want 2 (the turn, then the one after the blocked stop); requests: %s", len(turns), requestLines(m))
		}
		if n := count(modelText(t, turns[0].Body), gateOut); n != 0 {
			t.Errorf("the gate's output reached the model before any stop (%d times)", n)
		}
		once(t, modelText(t, turns[1].Body), gateOut, "the failing gate's output after the blocked stop")
	}

	t.Run("unreviewed", func(t *testing.T) {
		if got := turns(t); len(got) != 1 || count(string(got[0].Body), gateOut) != 0 {
			t.Errorf("an unreviewed hook ran: %d requests, want 1; requests: %s", len(got), requestLines(m))
		}
	})
	t.Run("reviewed", func(t *testing.T) {
		trustCodexHook(t, w, filepath.Join(w.home, ".codex", "hooks.json"))
		blocked(t, turns(t))
	})
	t.Run("reviewed-both-levels", func(t *testing.T) {
		write(t, w.project, ".charter/settings.yaml", "")
		charterRun(t, "apply", "--project", "--agent", "codex")
		trustCodexHook(t, w, filepath.Join(w.project, ".codex", "hooks.json"))
		blocked(t, turns(t))
	})
}
