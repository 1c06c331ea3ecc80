package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
)

// A bad value already in the file is repaired by setting or unsetting its
// key; comments stay, and every other key is still checked.
func TestBadValueIsRepairedBySetOrUnset(t *testing.T) {
	body := "# mine\nrules:\n  tier: extreme # why\n  disabled: [a]\n"
	t.Run("set", func(t *testing.T) {
		fs := afero.NewMemMapFs()
		st := globalStore(t, fs, "/home/u")
		writeFile(t, fs, st, body)
		snap := mustSet(t, st, "rules.tier", "full")
		if snap.Values["rules.tier"] != "full" {
			t.Fatalf("snapshot %v", snap.Values["rules.tier"])
		}
		if got, _ := afero.ReadFile(fs, st.Path()); string(got) != "# mine\nrules:\n  tier: full # why\n  disabled: [a]\n" {
			t.Fatalf("file %q", got)
		}
	})
	t.Run("unset", func(t *testing.T) {
		fs := afero.NewMemMapFs()
		st := globalStore(t, fs, "/home/u")
		writeFile(t, fs, st, body)
		snap, err := unset(st, "rules.tier")
		if err != nil || snap.Values["rules.tier"] != "balanced" {
			t.Fatalf("%v %v", snap, err)
		}
		if got, _ := afero.ReadFile(fs, st.Path()); string(got) != "# mine\nrules:\n  disabled: [a]\n" {
			t.Fatalf("file %q", got)
		}
	})
	t.Run("a wrong type", func(t *testing.T) {
		fs := afero.NewMemMapFs()
		st := globalStore(t, fs, "/home/u")
		writeFile(t, fs, st, "skills:\n  disabled: {a: 1}\n")
		mustSet(t, st, "skills.disabled", "a,b")
		if got, _ := afero.ReadFile(fs, st.Path()); string(got) != "skills:\n  disabled: [a, b]\n" {
			t.Fatalf("file %q", got)
		}
	})
	t.Run("other problems stay", func(t *testing.T) {
		fs := afero.NewMemMapFs()
		st := globalStore(t, fs, "/home/u")
		unchanged := writeFile(t, fs, st, body+"gates:\n  on_failure: sometimes\n")
		_, err := set(st, "rules.tier", "full")
		var fe *FileError
		if !errors.As(err, &fe) || len(fe.Problems) != 2 || fe.Problems[1].Key != "gates.on_failure" || fe.Problems[1].Line != 6 ||
			!strings.Contains(err.Error(), "fix them by hand") {
			t.Fatalf("got %v", err)
		}
		unchanged()
		// A write of both at once repairs the file.
		if _, err := st.Write(Update{Set: map[string]any{"rules.tier": "full"}, Unset: []string{"gates.on_failure"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Read(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a key defined twice is not repaired", func(t *testing.T) {
		fs := afero.NewMemMapFs()
		st := globalStore(t, fs, "/home/u")
		unchanged := writeFile(t, fs, st, "rules:\n  tier: extreme\n  tier: full\n")
		if _, err := set(st, "rules.tier", "full"); err == nil {
			t.Fatal("written")
		}
		unchanged()
	})
}

// Every read reports every problem of every file, each with file and line,
// in file order; the JSON extras carry them all.
func TestReadListsEveryProblem(t *testing.T) {
	fs := afero.NewMemMapFs()
	home := "/home/u"
	global := globalStore(t, fs, home)
	writeFile(t, fs, global, "agent:\n  autonomy: sometimes\n")
	st := globalStore(t, fs, home, "CLAUDE_CONFIG_DIR=/home/u/.agent-switch/claude/a/config")
	writeFile(t, fs, st, "rules:\n  tier: extreme\n  tier: full\ngates:\n  on_failure: maybe\n  coverage:\n    min: 500\n")
	_, err := st.Read()
	var fe *FileError
	if !errors.As(err, &fe) {
		t.Fatalf("got %v", err)
	}
	type pl struct {
		file string
		line int
		key  string
	}
	var got []pl
	for _, p := range fe.Problems {
		got = append(got, pl{p.File, p.Line, p.Key})
	}
	want := []pl{
		{global.Path(), 2, "agent.autonomy"},
		{st.Path(), 2, "rules.tier"}, // "extreme"
		{st.Path(), 3, "rules.tier"}, // defined twice
		{st.Path(), 5, "gates.on_failure"},
		{st.Path(), 7, "gates.coverage.min"},
	}
	if len(got) != len(want) {
		t.Fatalf("problems %+v", fe.Problems)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("problem %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	msg := err.Error()
	for _, s := range []string{"5 problems", st.Path() + ":7: gates.coverage.min: 500 is out of range", global.Path() + ":2: agent.autonomy"} {
		if !strings.Contains(msg, s) {
			t.Errorf("message lacks %q:\n%s", s, msg)
		}
	}
	extras, _ := json.Marshal(core.ErrorExtras(err))
	if !strings.Contains(string(extras), `{"file":"`+st.Path()+`","line":7,"key":"gates.coverage.min","message":"gates.coverage.min: 500 is out of range`) {
		t.Errorf("extras %s", extras)
	}
	// The profile's writes cannot repair the global file: refused.
	if _, err := unset(st, "rules.tier"); !errors.As(err, &fe) {
		t.Fatalf("got %v", err)
	}
}

// One bad value: the message says how to repair it from the command line.
func TestOneBadValueSaysHowToRepair(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	writeFile(t, fs, st, "rules:\n  tier: extreme\n")
	_, err := st.Read()
	if err == nil || !strings.Contains(err.Error(), st.Path()+`:2: rules.tier: "extreme" is not allowed`) ||
		!strings.Contains(err.Error(), "charter settings set rules.tier VALUE") {
		t.Fatalf("got %v", err)
	}
}

func TestEnumsAndBoolsInAnyCase(t *testing.T) {
	for _, tc := range []struct {
		key, text string
		want      any
	}{
		{"rules.tier", "FULL", "full"},
		{"cost.enforcement", "Hard-Stop", "hard-stop"},
		{"skills.autoload", "TRUE", true},
		{"skills.autoload", "No", false},
	} {
		if v, err := ParseText(tc.key, tc.text); err != nil || v != tc.want {
			t.Errorf("ParseText(%s, %s) = %v, %v", tc.key, tc.text, v, err)
		}
	}
	if v, err := ParseJSON("worktrees.mode", json.RawMessage(`"ASK"`)); err != nil || v != "ask" {
		t.Errorf("ParseJSON: %v %v", v, err)
	}
	if _, err := ParseText("rules.tier", "fullest"); err == nil {
		t.Error("fullest accepted")
	}
	// A file holds the exact values the published schema names, as the
	// editor checks them: another case, or a YAML 1.1 boolean word that
	// YAML 1.2 readers take for text, is refused with the fix.
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	writeFile(t, fs, st, "rules:\n  tier: Minimal\nskills:\n  autoload: OFF\n")
	_, err := st.Read()
	if msg := fmt.Sprint(err); !strings.Contains(msg, ":2: rules.tier: \"Minimal\" is not allowed: use one of minimal, balanced, full") ||
		!strings.Contains(msg, ":4: skills.autoload: OFF is not a boolean: write true or false") {
		t.Fatalf("%v", err)
	}
	writeFile(t, fs, st, "rules:\n  tier: minimal\n")
	// Written back canonical.
	mustSet(t, st, "rules.tier", "BALANCED")
	if got, _ := afero.ReadFile(fs, st.Path()); !strings.Contains(string(got), "tier: balanced\n") {
		t.Fatalf("file %q", got)
	}
}
