package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
)

func globalStore(t *testing.T, fs afero.Fs, home string, env ...string) *Store {
	t.Helper()
	sys := coretest.New(t, coretest.Fs(fs), coretest.Home(home), coretest.Env(env...)).Sys
	sc, err := sys.ResolveScope(nil)
	if err != nil {
		t.Fatal(err)
	}
	return New(sys, sc)
}

func mustSet(t *testing.T, st *Store, key, text string) *Snapshot {
	t.Helper()
	v, err := ParseText(key, text)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := st.Write(Update{Set: map[string]any{key: v}})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func TestDefaults(t *testing.T) {
	st := globalStore(t, afero.NewMemMapFs(), "/home/u")
	snap, err := st.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Values) != len(Keys()) {
		t.Fatalf("want %d keys, got %d", len(Keys()), len(snap.Values))
	}
	for _, k := range Keys() {
		if snap.Origins[k.Name] != OriginDefault {
			t.Errorf("%s origin %q", k.Name, snap.Origins[k.Name])
		}
	}
	if got := snap.Values["commands.suggestions.confidence_floor"]; got != Dec("0.6") {
		t.Errorf("confidence_floor default %v", got)
	}
	// Reading never creates anything.
	if _, err := st.sys.Fs.Stat("/home/u/.agentkit"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("read created the root: %v", err)
	}
}

func TestSetKeepsCommentsOrderAndUnknownKeys(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	orig := `# my settings
custom:
  thing: 1 # keep me
rules:
  # tier comment
  tier: minimal # inline
`
	if err := afero.WriteFile(fs, st.Path(), []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	snap := mustSet(t, st, "rules.tier", "full")
	mustSet(t, st, "gates.coverage.min", "12.50")
	got, _ := afero.ReadFile(fs, st.Path())
	want := `# my settings
custom:
  thing: 1 # keep me
rules:
  # tier comment
  tier: full # inline
gates:
  coverage:
    min: 12.5
`
	if string(got) != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
	if snap.Values["rules.tier"] != "full" || snap.Origins["rules.tier"] != st.Path() {
		t.Errorf("snapshot %v %v", snap.Values["rules.tier"], snap.Origins["rules.tier"])
	}
	snap, _ = st.Read()
	if strings.Join(snap.Unknown, ",") != "custom.thing" {
		t.Errorf("unknown %v", snap.Unknown)
	}
	if snap.Values["gates.coverage.min"] != Dec("12.5") {
		t.Errorf("coverage %v", snap.Values["gates.coverage.min"])
	}
}

func TestUnsetDropsEmptyMappings(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	mustSet(t, st, "cost.budget.daily", "5")
	mustSet(t, st, "rules.tier", "full")
	if _, err := st.Write(Update{Unset: []string{"cost.budget.daily"}}); err != nil {
		t.Fatal(err)
	}
	got, _ := afero.ReadFile(fs, st.Path())
	if string(got) != "rules:\n  tier: full\n" {
		t.Fatalf("file %q", got)
	}
	// Unsetting on a fresh scope creates nothing.
	fresh := globalStore(t, fs, "/home/v")
	if _, err := fresh.Write(Update{Unset: []string{"rules.tier"}}); err != nil {
		t.Fatal(err)
	}
	if ok, _ := afero.Exists(fs, fresh.Path()); ok {
		t.Fatal("unset created a settings file")
	}
	// Unsetting an absent key is a no-op, not an error.
	if _, err := st.Write(Update{Unset: []string{"cost.budget.daily"}}); err != nil {
		t.Fatal(err)
	}
}

func TestLiteralDottedKey(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	afero.WriteFile(fs, st.Path(), []byte("rules.tier: minimal\n"), 0o600)
	snap, err := st.Read()
	if err != nil || snap.Values["rules.tier"] != "minimal" {
		t.Fatalf("%v %v", snap, err)
	}
	mustSet(t, st, "rules.tier", "full")
	got, _ := afero.ReadFile(fs, st.Path())
	if string(got) != "rules.tier: full\n" {
		t.Fatalf("file %q", got)
	}
	st.Write(Update{Unset: []string{"rules.tier"}})
	got, _ = afero.ReadFile(fs, st.Path())
	if string(got) != "" {
		t.Fatalf("file %q", got)
	}
}

func TestMalformedFileIsReportedAndKept(t *testing.T) {
	for name, body := range map[string]string{
		"syntax":     "rules:\n  tier: [unclosed\n",
		"top-level":  "- a\n- b\n",
		"bad value":  "rules:\n  tier: extreme\n",
		"bad type":   "skills:\n  disabled: {a: 1}\n",
		"tab indent": "rules:\n\ttier: full\n",
	} {
		t.Run(name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			st := globalStore(t, fs, "/home/u")
			afero.WriteFile(fs, st.Path(), []byte(body), 0o600)
			_, err := st.Read()
			var se *FileError
			if !errors.As(err, &se) || se.Path != st.Path() || se.Line() == 0 {
				t.Fatalf("read: %v", err)
			}
			// A write of another key leaves the problem in place: refused.
			v, _ := ParseText("gates.on_failure", "ask")
			if _, err := st.Write(Update{Set: map[string]any{"gates.on_failure": v}}); !errors.As(err, &se) {
				t.Fatalf("write: %v", err)
			}
			got, _ := afero.ReadFile(fs, st.Path())
			if string(got) != body {
				t.Fatalf("file changed: %q", got)
			}
		})
	}
}

func TestProfileLayers(t *testing.T) {
	fs := afero.NewMemMapFs()
	home := "/home/u"
	global := globalStore(t, fs, home)
	mustSet(t, global, "rules.tier", "full")
	mustSet(t, global, "gates.on_failure", "ask")

	a := globalStore(t, fs, home, "CLAUDE_CONFIG_DIR=/home/u/.agent-switch/claude/a/config")
	b := globalStore(t, fs, home, "CLAUDE_CONFIG_DIR=/home/u/.agent-switch/claude/b/config")
	if a.scope.Kind != core.ScopeProfile {
		t.Fatalf("scope %+v", a.scope)
	}
	mustSet(t, a, "rules.tier", "minimal")
	sa, _ := a.Read()
	sb, _ := b.Read()
	if sa.Values["rules.tier"] != "minimal" || sb.Values["rules.tier"] != "full" {
		t.Fatalf("a=%v b=%v", sa.Values["rules.tier"], sb.Values["rules.tier"])
	}
	if sa.Values["gates.on_failure"] != "ask" || sa.Origins["gates.on_failure"] != global.Path() {
		t.Fatalf("inherited %v from %v", sa.Values["gates.on_failure"], sa.Origins["gates.on_failure"])
	}
	// A host root is not layered on the global file.
	sys := coretest.New(t, coretest.Fs(fs), coretest.Home(home)).Sys
	flag := "/srv/host"
	sc, _ := sys.ResolveScope(&flag)
	sh, _ := New(sys, sc).Read()
	if sh.Values["rules.tier"] != "balanced" {
		t.Fatalf("host inherited %v", sh.Values["rules.tier"])
	}
}

func TestIfMatch(t *testing.T) {
	st := globalStore(t, afero.NewMemMapFs(), "/home/u")
	s0, _ := st.Read()
	v, _ := ParseText("rules.tier", "full")
	s1, err := st.Write(Update{Set: map[string]any{"rules.tier": v}, IfMatch: s0.ETag})
	if err != nil {
		t.Fatal(err)
	}
	if s1.ETag == s0.ETag {
		t.Fatal("etag did not change")
	}
	_, err = st.Write(Update{Set: map[string]any{"rules.tier": v}, IfMatch: s0.ETag})
	var stale *StaleError
	if !errors.As(err, &stale) || stale.Current != s1.ETag {
		t.Fatalf("want stale with %s, got %v", s1.ETag, err)
	}
}

func TestValidationListsEveryProblem(t *testing.T) {
	st := globalStore(t, afero.NewMemMapFs(), "/home/u")
	_, err := st.Write(Update{
		Set:   map[string]any{"nope": true, "rules.tier": "extreme", "gates.coverage.min": Dec("101")},
		Unset: []string{"also.nope"},
	})
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) != 4 {
		t.Fatalf("%v", err)
	}
	if ve.Code() != core.CodeInvalidValue {
		t.Errorf("code %s", ve.Code())
	}
}

// Writers of distinct keys at once lose nothing: one goroutine per key, over
// several rounds, through the real file system and its locks.
func TestConcurrentWritersLoseNothing(t *testing.T) {
	home := t.TempDir()
	st := globalStore(t, afero.NewOsFs(), home)
	for round := 0; round < 3; round++ {
		var wg sync.WaitGroup
		for i, k := range Keys() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := st.Write(Update{Set: map[string]any{k.Name: sampleValue(k, round+i)}}); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		snap, err := st.Read()
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range Keys() {
			if want := sampleValue(k, round+i); !equalValue(snap.Values[k.Name], want) || snap.Origins[k.Name] != st.Path() {
				t.Fatalf("round %d: %s = %v (%s), want %v", round, k.Name, snap.Values[k.Name], snap.Origins[k.Name], want)
			}
		}
	}
}

func sampleValue(k Key, n int) any {
	switch k.Kind {
	case Bool:
		return n%2 == 0
	case Int: // within the key's range
		lo, span := int64(0), int64(20)
		if k.Min != nil {
			lo = k.Min.IntPart()
		}
		if k.Max != nil {
			span = min(span, k.Max.IntPart()-lo+1)
		}
		return lo + int64(n)%span
	case Decimal:
		return Dec("0." + string(rune('1'+n%9)))
	case Enum:
		return k.Choices[n%len(k.Choices)]
	case String:
		return fmt.Sprintf("cmd %d", n)
	case Duration: // canonical, as ParseText stores it
		return (time.Duration(n+1) * time.Second).String()
	}
	if k.ItemCheck != nil && k.ItemCheck("mcp:x") == "" { // a rule
		return []string{"mcp:x", "mcp:" + string(rune('a'+n%26))}
	}
	return []string{"x", string(rune('a' + n%26))}
}

func equalValue(a, b any) bool {
	as, ok1 := a.([]string)
	bs, ok2 := b.([]string)
	if ok1 && ok2 {
		return strings.Join(as, "\x00") == strings.Join(bs, "\x00")
	}
	return a == b
}

func TestModes(t *testing.T) {
	home := t.TempDir()
	st := globalStore(t, afero.NewOsFs(), home)
	mustSet(t, st, "rules.tier", "full")
	for p, want := range map[string]os.FileMode{st.Path(): 0o600, filepath.Dir(st.Path()): 0o700} {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v", p, fi.Mode(), err)
		}
	}
}

// writeFile puts body in the store's file and returns a function that
// fails the test when the file no longer holds exactly body.
func writeFile(t *testing.T, fs afero.Fs, st *Store, body string) func() {
	t.Helper()
	if err := afero.WriteFile(fs, st.Path(), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return func() {
		t.Helper()
		got, _ := afero.ReadFile(fs, st.Path())
		if string(got) != body {
			t.Fatalf("file changed:\n%q\nwant\n%q", got, body)
		}
	}
}

func set(st *Store, key, text string) (*Snapshot, error) {
	v, err := ParseText(key, text)
	if err != nil {
		return nil, err
	}
	return st.Write(Update{Set: map[string]any{key: v}})
}

func unset(st *Store, key string) (*Snapshot, error) {
	return st.Write(Update{Unset: []string{key}})
}

// A key defined twice makes the file malformed for reads and writes alike:
// both lines are named, and nothing is written.
func TestKeyDefinedTwiceIsMalformed(t *testing.T) {
	for name, tc := range map[string]struct {
		body  string
		key   string
		lines string
	}{
		"same mapping":      {"rules:\n  tier: full\n  tier: minimal\n", "rules.tier", "line 2 and on line 3"},
		"depth three":       {"commands:\n  suggestions:\n    max_options: 2\n    max_options: 3\n", "commands.suggestions.max_options", "line 3 and on line 4"},
		"dotted and nested": {"rules.tier: full\nrules:\n  tier: minimal\n", "rules.tier", "line 1 and on line 3"},
		"half dotted":       {"gates:\n  coverage.min: 5\n  coverage:\n    min: 6\n", "gates.coverage.min", "line 2 and on line 4"},
		"section twice":     {"rules:\n  tier: full\nrules:\n  disabled: [a]\n", "rules.tier", "line 1 and on line 3"},
	} {
		t.Run(name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			st := globalStore(t, fs, "/home/u")
			unchanged := writeFile(t, fs, st, tc.body)
			_, rerr := st.Read()
			_, serr := set(st, tc.key, sampleText(tc.key))
			_, uerr := unset(st, tc.key)
			for op, err := range map[string]error{"read": rerr, "set": serr, "unset": uerr} {
				var fe *FileError
				if !errors.As(err, &fe) || fe.Code() != core.CodeMalformedSettings || !strings.Contains(err.Error(), st.Path()+":") || !strings.Contains(err.Error(), tc.lines) {
					t.Errorf("%s: %v", op, err)
				}
			}
			unchanged()
		})
	}
}

func sampleText(key string) string {
	k, _ := Lookup(key)
	switch k.Kind {
	case Enum:
		return k.Choices[0]
	case Bool:
		return "true"
	case List:
		return "a,b"
	}
	return "1"
}

// A value the user wrote where a write would need a section is never
// replaced: exit 2 material, naming file and line, nothing written.
func TestScalarParentIsRefused(t *testing.T) {
	for name, tc := range map[string]struct{ body, key, where string }{
		"scalar":        {"# mine\nrules: 5 # my note\n", "rules.tier", ":2: rules holds a value"},
		"list":          {"gates: [a, b]\n", "gates.on_failure", ":1: gates holds a value"},
		"deep":          {"commands:\n  suggestions: off # not now\n", "commands.suggestions.enabled", ":2: commands.suggestions holds a value"},
		"dotted parent": {"commands.suggestions: off\n", "commands.suggestions.max_options", ":1: commands.suggestions holds a value"},
	} {
		t.Run(name, func(t *testing.T) {
			fs := afero.NewMemMapFs()
			st := globalStore(t, fs, "/home/u")
			unchanged := writeFile(t, fs, st, tc.body)
			snap, err := st.Read()
			if err != nil || len(snap.Unknown) == 0 {
				t.Fatalf("the value is kept as an unknown key: %v %v", snap, err)
			}
			_, err = set(st, tc.key, sampleText(tc.key))
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Code() != core.CodeScalarParent || !strings.Contains(err.Error(), st.Path()+tc.where) || !strings.Contains(err.Error(), "edit or remove line") {
				t.Fatalf("got %v", err)
			}
			unchanged()
			// Unsetting the key is a no-op that keeps the value too.
			if _, err := unset(st, tc.key); err != nil {
				t.Fatal(err)
			}
			unchanged()
		})
	}
	// An empty section is no value: it takes the key, comment and all.
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	writeFile(t, fs, st, "rules: # later\n")
	mustSet(t, st, "rules.tier", "full")
	if got, _ := afero.ReadFile(fs, st.Path()); string(got) != "rules: # later\n  tier: full\n" {
		t.Fatalf("file %q", got)
	}
}

// A CRLF file stays CRLF: byte for byte the same but for the changed line.
func TestCRLFFileKeepsItsLineEnds(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	body := "# my settings\r\nrules:\r\n  # tier comment\r\n  tier: minimal # inline\r\ngates:\r\n  on_failure: ask\r\n"
	writeFile(t, fs, st, body)
	mustSet(t, st, "rules.tier", "full")
	got, _ := afero.ReadFile(fs, st.Path())
	if want := strings.Replace(body, "tier: minimal", "tier: full", 1); string(got) != want {
		t.Fatalf("file\n%q\nwant\n%q", got, want)
	}
	mustSet(t, st, "skills.autoload", "false")
	if _, err := unset(st, "gates.on_failure"); err != nil {
		t.Fatal(err)
	}
	got, _ = afero.ReadFile(fs, st.Path())
	if want := "# my settings\r\nrules:\r\n  # tier comment\r\n  tier: full # inline\r\nskills:\r\n  autoload: false\r\n"; string(got) != want {
		t.Fatalf("file\n%q\nwant\n%q", got, want)
	}
}

func TestBOMIsKept(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	writeFile(t, fs, st, utf8BOM+"rules:\n  tier: minimal\n")
	if snap, err := st.Read(); err != nil || snap.Values["rules.tier"] != "minimal" {
		t.Fatalf("%v %v", snap, err)
	}
	mustSet(t, st, "rules.tier", "full")
	if got, _ := afero.ReadFile(fs, st.Path()); string(got) != utf8BOM+"rules:\n  tier: full\n" {
		t.Fatalf("file %q", got)
	}
}

// A file above the cap is refused before it is parsed, on read and write.
func TestFileAboveTheCapIsRefused(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	line := "# " + strings.Repeat("x", 1021) + "\n" // 1 KiB
	head := "rules:\n  tier: full\n"
	body := head + strings.Repeat(line, (MaxFileSize-len(head))/len(line))
	body += strings.Repeat("#", MaxFileSize-len(body)) + "\n"
	if len(body) != MaxFileSize+1 {
		t.Fatalf("built %d bytes", len(body))
	}
	unchanged := writeFile(t, fs, st, body)
	_, rerr := st.Read()
	_, serr := set(st, "rules.tier", "minimal")
	for op, err := range map[string]error{"read": rerr, "set": serr} {
		var fe *FileError
		if !errors.As(err, &fe) || fe.Path != st.Path() || !strings.Contains(err.Error(), "larger than the 1 MiB") {
			t.Errorf("%s: %v", op, err)
		}
	}
	unchanged()
	// At the cap exactly, the file is read.
	writeFile(t, fs, st, body[:MaxFileSize-1]+"\n")
	if snap, err := st.Read(); err != nil || snap.Values["rules.tier"] != "full" {
		t.Fatalf("at the cap: %v", err)
	}
}

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

func TestCommentOnlyFileKeepsItsComments(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	writeFile(t, fs, st, "# written by hand\n# keep\n")
	mustSet(t, st, "rules.tier", "full")
	if _, err := unset(st, "rules.tier"); err != nil {
		t.Fatal(err)
	}
	if got, _ := afero.ReadFile(fs, st.Path()); string(got) != "# written by hand\n# keep\n" {
		t.Fatalf("file %q", got)
	}
}

// A comment the YAML writer cannot place makes the edit fail, not vanish.
func TestEditThatWouldLoseACommentIsRefused(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	unchanged := writeFile(t, fs, st, "a:\n# stranded\n 0\n# two\nb:\n")
	_, err := set(st, "rules.tier", "full")
	var fe *FileError
	if !errors.As(err, &fe) || fe.Line() != 2 || !strings.Contains(err.Error(), `"# stranded"`) {
		t.Fatalf("got %v", err)
	}
	unchanged()
}

func TestSecondDocumentIsMalformed(t *testing.T) {
	fs := afero.NewMemMapFs()
	st := globalStore(t, fs, "/home/u")
	unchanged := writeFile(t, fs, st, "rules:\n  tier: full\n---\nrules:\n  tier: minimal\n")
	if _, err := st.Read(); err == nil || !strings.Contains(err.Error(), ":3: a second YAML document") {
		t.Fatalf("got %v", err)
	}
	if _, err := set(st, "gates.on_failure", "ask"); err == nil {
		t.Fatal("written")
	}
	unchanged()
}

// A write of a file near the cap stays linear: one parse, one encode, one
// check of what was written.
func BenchmarkWriteLargeFile(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("# big file\nrules:\n  tier: minimal\n")
	for i := 0; sb.Len() < MaxFileSize-200; i++ {
		fmt.Fprintf(&sb, "# note %d\nkey%d:\n  name: value %d # inline\n  list: [a, b, c]\n", i, i, i)
	}
	benchWrite(b, []byte(sb.String()))
}
