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
	"time"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/gates"
)

const (
	hookCmd  = "/usr/local/bin/charter gate hook claude-stop"
	hookCmd2 = "/opt/charter/bin/charter --config-root /srv/agents gate hook claude-stop"
	hookSecs = 1920 // gates.HookTimeout(DefaultTimeout)
)

// ensure is EnsureStopHook with cmd and the default timeout.
func ensure(t *testing.T, data []byte, cmd string, present bool) []byte {
	t.Helper()
	return ensureHook(t, data, StopHook{Command: cmd, Timeout: hookSecs}, present)
}

func ensureHook(t *testing.T, data []byte, hook StopHook, present bool) []byte {
	t.Helper()
	out, err := EnsureStopHook(data, gates.ClaudeStop, hook, present)
	if err != nil {
		t.Fatal(err)
	}
	if len(bytes.TrimSpace(out)) > 0 && !json.Valid(bytes.TrimPrefix(out, bom)) {
		t.Fatalf("invalid JSON:\n%s", out)
	}
	return out
}

// onlyInserted checks that out is in with one run of bytes inserted, and
// returns that run.
func onlyInserted(t *testing.T, in, out []byte) string {
	t.Helper()
	p := 0
	for p < len(in) && in[p] == out[p] {
		p++
	}
	s := 0
	for s < len(in)-p && in[len(in)-1-s] == out[len(out)-1-s] {
		s++
	}
	if p+s != len(in) {
		t.Fatalf("more than one insertion:\n%s", out)
	}
	return string(out[p : len(out)-s])
}

// charterEntries decodes the Stop list and returns the commands of
// charter's entries.
func charterEntries(t *testing.T, data []byte) []string {
	t.Helper()
	var doc struct {
		Hooks struct {
			Stop []struct {
				Hooks []struct{ Command string }
			}
		}
	}
	if err := json.Unmarshal(bytes.TrimPrefix(data, bom), &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, g := range doc.Hooks.Stop {
		for _, h := range g.Hooks {
			if gates.IsCharterHook(h.Command) {
				out = append(out, h.Command)
			}
		}
	}
	return out
}

func TestEnsureStopHookGolden(t *testing.T) {
	for _, name := range []string{"settings.json", "tabs-no-stop.json", "compact.json", "crlf.json"} {
		t.Run(name, func(t *testing.T) {
			orig, err := os.ReadFile(filepath.Join("testdata", "claude", name))
			if err != nil {
				t.Fatal(err)
			}
			added := ensure(t, orig, hookCmd, true)
			base := strings.TrimSuffix(name, ".json")
			coretest.Golden(t, filepath.Join("testdata", "claude", base+".added.json"), added)
			if ins := onlyInserted(t, orig, added); !strings.Contains(ins, hookCmd) {
				t.Fatalf("inserted %q", ins)
			}
			if got := charterEntries(t, added); !reflect.DeepEqual(got, []string{hookCmd}) {
				t.Fatalf("entries %q", got)
			}
			// Present again: nothing changes, the very slice comes back.
			if again := ensure(t, added, hookCmd, true); !bytes.Equal(again, added) {
				t.Fatalf("not idempotent:\n%s", again)
			}
			// A new binary path: only the command string changes.
			moved := ensure(t, added, hookCmd2, true)
			coretest.Golden(t, filepath.Join("testdata", "claude", base+".moved.json"), moved)
			if got := charterEntries(t, moved); !reflect.DeepEqual(got, []string{hookCmd2}) {
				t.Fatalf("entries %q", got)
			}
			// Removing gives back the user's file, byte for byte.
			if removed := ensure(t, moved, hookCmd2, false); !bytes.Equal(removed, orig) {
				t.Fatalf("removal did not restore the file:\n%s", removed)
			}
			if same := ensure(t, orig, hookCmd, false); !bytes.Equal(same, orig) {
				t.Fatalf("removing an absent entry changed the file")
			}
		})
	}
}

func TestEnsureStopHookEmpty(t *testing.T) {
	want := "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n" +
		"            \"type\": \"command\",\n            \"command\": \"" + hookCmd + "\",\n" +
		"            \"timeout\": 1920\n" +
		"          }\n        ]\n      }\n    ]\n  }\n}\n"
	for _, in := range []string{"", " \n"} {
		if got := ensure(t, []byte(in), hookCmd, true); string(got) != want {
			t.Fatalf("from %q:\n%s", in, got)
		}
		if got := ensure(t, []byte(in), hookCmd, false); string(got) != in {
			t.Fatalf("removal from %q gave %q", in, got)
		}
	}
	if got := ensure(t, nil, hookCmd, false); got != nil {
		t.Fatalf("removal from a missing file gave %q", got)
	}
	// An empty object is filled in the default style; removing leaves it empty.
	got := ensure(t, []byte("{}\n"), hookCmd, true)
	if string(got) != want {
		t.Fatalf("from {}:\n%s", got)
	}
	if back := ensure(t, got, hookCmd, false); string(back) != "{}\n" {
		t.Fatalf("back to %q", back)
	}
}

// The user's own hooks stay, even in the group that holds charter's entry.
func TestEnsureStopHookRemovesOnlyCharter(t *testing.T) {
	in := `{
  "hooks": {
    "Stop": [
      {
        "matcher": "",
        "hooks": [
          {"type": "command", "command": "mine.sh"},
          {"type": "command", "command": "/old/charter gate hook claude-stop", "timeout": 900},
          {"type": "command", "command": "also-mine.sh"}
        ]
      },
      {"hooks": [{"type": "command", "command": "charter gate hook claude-stop "}]},
      {"hooks": [{"type": "command", "command": "tail.sh"}]}
    ],
    "Notification": []
  }
}`
	removed := ensure(t, []byte(in), hookCmd, false)
	want := `{
  "hooks": {
    "Stop": [
      {
        "matcher": "",
        "hooks": [
          {"type": "command", "command": "mine.sh"},
          {"type": "command", "command": "also-mine.sh"}
        ]
      },
      {"hooks": [{"type": "command", "command": "tail.sh"}]}
    ],
    "Notification": []
  }
}`
	if string(removed) != want {
		t.Fatalf("got\n%s", removed)
	}
	// Present: the first entry is kept in place, with charter's timeout;
	// the duplicate goes.
	kept := ensure(t, []byte(in), hookCmd, true)
	if got := charterEntries(t, kept); !reflect.DeepEqual(got, []string{hookCmd}) {
		t.Fatalf("entries %q", got)
	}
	if !strings.Contains(string(kept), `{"type": "command", "command": "`+hookCmd+`", "timeout": 1920},`) ||
		strings.Contains(string(kept), "claude-stop \"") {
		t.Fatalf("got\n%s", kept)
	}
}

func TestEnsureStopHookKeepsEmptyStopItDidNotEmpty(t *testing.T) {
	in := "{\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n"
	added := ensure(t, []byte(in), hookCmd, true)
	if ins := onlyInserted(t, []byte(in), added); !strings.HasPrefix(ins, "\n      {\n        \"hooks\": [") {
		t.Fatalf("inserted %q", ins)
	}
	// Removal drops the Stop list and hooks object it left empty.
	if got := ensure(t, added, hookCmd, false); string(got) != "{}\n" {
		t.Fatalf("got %q", got)
	}
}

func TestEnsureStopHookBOMAndEscapes(t *testing.T) {
	in := []byte(string(bom) + `{"a": "<&>"}`)
	cmd := `C:\Program Files\charter\charter.exe gate hook claude-stop`
	out := ensure(t, in, cmd, true)
	if !bytes.HasPrefix(out, []byte(string(bom)+`{"a": "<&>", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "C:\\Program Files`)) {
		t.Fatalf("got %s", out)
	}
	if got := charterEntries(t, out); !reflect.DeepEqual(got, []string{cmd}) {
		t.Fatalf("entries %q", got)
	}
	if back := ensure(t, out, cmd, false); !bytes.Equal(back, in) {
		t.Fatalf("back %s", back)
	}
}

func TestEnsureStopHookErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		in, want   string
		line, col  int
		wantPlain  bool
		commandBad bool
	}{
		"invalid":       {in: "{\n  \"a\": 1,\n  \"b\": ]\n}", want: "invalid JSON", line: 3, col: 8},
		"trailing":      {in: "{\n  \"a\": 1,\n}", want: "invalid JSON", line: 3, col: 1},
		"truncated":     {in: "{\n  \"a\": [", want: "invalid JSON", line: 2, col: 9},
		"array":         {in: "[]", want: "not a JSON object"},
		"hooks not obj": {in: "{\n  \"hooks\": [\n  ]\n}", want: `"hooks" is not an object`, line: 2, col: 12},
		"stop not list": {in: `{"hooks": {"Stop": {}}}`, want: `"hooks.Stop" is not a list`, line: 1, col: 20},
	} {
		t.Run(name, func(t *testing.T) {
			for _, present := range []bool{true, false} {
				_, err := EnsureStopHook([]byte(tc.in), gates.ClaudeStop, StopHook{Command: hookCmd, Timeout: hookSecs}, present)
				var se *AgentSettingsError
				if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) || se.Line != tc.line || se.Column != tc.col {
					t.Fatalf("err %v, want %q at %d:%d", err, tc.want, tc.line, tc.col)
				}
			}
		})
	}
	if _, err := EnsureStopHook(nil, gates.ClaudeStop, StopHook{Command: "/bin/true", Timeout: hookSecs}, true); err == nil {
		t.Fatal("a command that is not charter's hook was accepted")
	}
	if _, err := EnsureStopHook(nil, gates.ClaudeStop, StopHook{Command: hookCmd}, true); err == nil {
		t.Fatal("an entry without a timeout was accepted")
	}
}

// A Stop group of another shape is not charter's and stays.
func TestEnsureStopHookIgnoresForeignShapes(t *testing.T) {
	in := `{"hooks": {"Stop": [1, "x", {"hooks": {}}, {"hooks": [2, {"command": 3}, {"command": "x gate hook claude-stop"}]}]}}`
	out := ensure(t, []byte(in), hookCmd, false)
	want := `{"hooks": {"Stop": [1, "x", {"hooks": {}}, {"hooks": [2, {"command": 3}]}]}}`
	if string(out) != want {
		t.Fatalf("got %s", out)
	}
}

// The entry's timeout follows gates.timeout: a new value replaces the
// number and nothing else; an entry without one (an older charter's) gets
// one in its own style; a value that means the same stays as spelled.
func TestEnsureStopHookTimeout(t *testing.T) {
	added, err := os.ReadFile(filepath.Join("testdata", "claude", "settings.added.json"))
	if err != nil {
		t.Fatal(err)
	}
	longer := StopHook{Command: hookCmd, Timeout: gates.HookTimeout(20 * time.Minute)}
	changed := ensureHook(t, added, longer, true)
	if want := strings.Replace(string(added), `"timeout": 1920`, `"timeout": 3720`, 1); string(changed) != want {
		t.Fatalf("got\n%s", changed)
	}
	if back := ensure(t, changed, hookCmd, true); !bytes.Equal(back, added) {
		t.Fatalf("back to 10m:\n%s", back)
	}
	// Command and timeout both change: two edits in place.
	both := ensureHook(t, added, StopHook{Command: hookCmd2, Timeout: 3720}, true)
	if want := strings.Replace(strings.Replace(string(added), hookCmd, hookCmd2, 1), "1920", "3720", 1); string(both) != want {
		t.Fatalf("got\n%s", both)
	}

	for name, tc := range map[string]struct{ in, want string }{
		"one line, none": {
			`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + hookCmd + `"}]}]}}`,
			`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + hookCmd + `", "timeout": 1920}]}]}}`},
		"lines, none": {
			"{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"" + hookCmd + "\"\n          }\n        ]\n      }\n    ]\n  }\n}\n",
			"{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"" + hookCmd + "\",\n            \"timeout\": 1920\n          }\n        ]\n      }\n    ]\n  }\n}\n"},
		"the user's own, before the command": {
			`{"hooks": {"Stop": [{"hooks": [{"timeout": 60, "type": "command", "command": "` + hookCmd + `", "statusMessage": "gates"}]}]}}`,
			`{"hooks": {"Stop": [{"hooks": [{"timeout": 1920, "type": "command", "command": "` + hookCmd + `", "statusMessage": "gates"}]}]}}`},
		"not a number": {
			`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + hookCmd + `", "timeout": "1920"}]}]}}`,
			`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + hookCmd + `", "timeout": 1920}]}]}}`},
		"duplicate keys: the last counts": {
			`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + hookCmd + `", "timeout": 1920, "timeout": 5}]}]}}`,
			`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + hookCmd + `", "timeout": 1920, "timeout": 1920}]}]}}`},
		"same value, other spelling": {
			`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + hookCmd + `", "timeout": 1.92e3}]}]}}`,
			`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + hookCmd + `", "timeout": 1.92e3}]}]}}`},
	} {
		t.Run(name, func(t *testing.T) {
			if got := ensure(t, []byte(tc.in), hookCmd, true); string(got) != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
