package settings

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
)

func globalStore(t *testing.T, fs afero.Fs, home string, env ...string) *Store {
	t.Helper()
	sys := coretest.New(t, coretest.Fs(fs), coretest.Home(home), coretest.Env(env...)).Sys
	sc, err := profile.ResolveScope(sys, nil)
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
		if !reflect.DeepEqual(snap.Values[k.Name], k.Default) {
			t.Errorf("%s: %#v, want the default %#v", k.Name, snap.Values[k.Name], k.Default)
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
	sc, _ := profile.ResolveScope(sys, &flag)
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
		if k.Min != "" {
			lo, _ = strconv.ParseInt(string(k.Min), 10, 64)
		}
		if k.Max != "" {
			hi, _ := strconv.ParseInt(string(k.Max), 10, 64)
			span = min(span, hi-lo+1)
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
