package settings

import (
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
)

func writeOnce(t *testing.T, body string, u Update) string {
	t.Helper()
	fs := afero.NewMemMapFs()
	sys := coretest.New(t, coretest.Fs(fs), coretest.Home("/h")).Sys
	st := New(sys, core.Scope{Kind: core.ScopeGlobal, Path: "/h/c"})
	if err := afero.WriteFile(fs, st.Path(), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Write(u); err != nil {
		t.Fatalf("write %v: %v", u, err)
	}
	got, err := afero.ReadFile(fs, st.Path())
	if err != nil {
		t.Fatal(err)
	}
	return string(got)
}

func sets(kv ...any) Update {
	u := Update{Set: map[string]any{}}
	for i := 0; i < len(kv); i += 2 {
		u.Set[kv[i].(string)] = kv[i+1]
	}
	return u
}

// A value on one line is replaced where it stands; everything else in the
// file, blank lines and spacing included, is kept byte for byte.
func TestSetInPlaceKeepsEveryOtherByte(t *testing.T) {
	tests := []struct {
		name, in string
		u        Update
		want     string
	}{
		{"blank lines and spacing",
			"# top\n\nrules:\n  tier:   minimal    # mine\n\n# next\ngates:\n  on_failure: ask\n\nfoo: [a,   b]\nbar: |\n  x\n",
			sets("rules.tier", "full"),
			"# top\n\nrules:\n  tier:   full    # mine\n\n# next\ngates:\n  on_failure: ask\n\nfoo: [a,   b]\nbar: |\n  x\n"},
		{"double quoted",
			"rules:\n  tier: \"minimal\" # q\n",
			sets("rules.tier", "balanced"),
			"rules:\n  tier: balanced # q\n"},
		{"single quoted with an escaped quote",
			"gates:\n  tests:\n    command: 'echo ''hi'''   # run\n",
			sets("gates.tests.command", "go test ./..."),
			"gates:\n  tests:\n    command: go test ./...   # run\n"},
		{"double quoted with an escaped quote",
			"gates:\n  tests:\n    command: \"echo \\\"a b\\\"\"\n  lint:\n    required: true\n",
			sets("gates.tests.command", "make lint"),
			"gates:\n  tests:\n    command: make lint\n  lint:\n    required: true\n"},
		{"a value that needs quotes",
			"gates:\n  tests:\n    command: make\n",
			sets("gates.tests.command", "123"),
			"gates:\n  tests:\n    command: \"123\"\n"},
		{"inside a flow mapping after wide characters",
			"rules: {\"clé ünïcödé\": 1, tier: minimal}\n",
			sets("rules.tier", "full"),
			"rules: {\"clé ünïcödé\": 1, tier: full}\n"},
		{"a literal dotted key",
			"rules.tier: minimal\n\n\nx: 1\n",
			sets("rules.tier", "full"),
			"rules.tier: full\n\n\nx: 1\n"},
		{"the value on the line below its key",
			"rules:\n  tier:\n    minimal\n",
			sets("rules.tier", "full"),
			"rules:\n  tier:\n    full\n"},
		{"two keys at once",
			"gates:\n  coverage:\n    min: 80   # floor\n\n  on_failure: ask\n",
			sets("gates.coverage.min", Dec("42.5"), "gates.on_failure", "warn"),
			"gates:\n  coverage:\n    min: 42.5   # floor\n\n  on_failure: warn\n"},
		{"null becomes a list",
			"rules:\n  disabled: ~ # none yet\n",
			sets("rules.disabled", []string{"a", "b c"}),
			"rules:\n  disabled: [a, b c] # none yet\n"},
		{"CRLF and a byte order mark",
			utf8BOM + "rules:\r\n  tier: minimal\r\n\r\nx: 1\r\n",
			sets("rules.tier", "full"),
			utf8BOM + "rules:\r\n  tier: full\r\n\r\nx: 1\r\n"},
		{"a bad value repaired",
			"rules:\n  tier: extreme\n\n  disabled: []\n",
			sets("rules.tier", "minimal"),
			"rules:\n  tier: minimal\n\n  disabled: []\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := writeOnce(t, tc.in, tc.u); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// Values that are not one plain or quoted line go through the rewrite of
// the whole tree, and still come out right.
func TestSetFallsBackToRewrite(t *testing.T) {
	tests := []struct {
		name, in string
		u        Update
		want     string
	}{
		{"a key the file lacks", "x: 1\n", sets("rules.tier", "full"), "x: 1\nrules:\n  tier: full\n"},
		{"a block scalar", "gates:\n  tests:\n    command: |\n      make\n", sets("gates.tests.command", "go test"), "gates:\n  tests:\n    command: go test\n"},
		{"a plain scalar over two lines", "gates:\n  tests:\n    command: make\n      all\n", sets("gates.tests.command", "go"), "gates:\n  tests:\n    command: go\n"},
		{"an anchored value", "rules:\n  tier: &t minimal\n", sets("rules.tier", "full"), "rules:\n  tier: full\n"},
		{"an explicit tag", "rules:\n  tier: !!str minimal\n", sets("rules.tier", "full"), "rules:\n  tier: full\n"},
		{"an empty value", "rules:\n  tier:\n", sets("rules.tier", "full"), "rules:\n  tier: full\n"},
		{"a block list", "rules:\n  disabled:\n    - a\n", sets("rules.disabled", []string{"b"}), "rules:\n  disabled: [b]\n"},
		{"set and unset", "rules:\n  tier: minimal\n  disabled: [a]\n", Update{Set: map[string]any{"rules.tier": "full"}, Unset: []string{"rules.disabled"}}, "rules:\n  tier: full\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := writeOnce(t, tc.in, tc.u); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// sameTree is the guard of every in-place edit: a text whose parse differs
// from the edited tree in a value, a tag or a comment is not accepted.
func TestSameTree(t *testing.T) {
	parse := func(s string) *yamlFile {
		f, p := decodeFile([]byte(s))
		if p != nil {
			t.Fatal(p)
		}
		return f
	}
	base := "rules:\n  tier: full # why\n\n# foot\nx: [1, 2]\n"
	if !sameTree(parse(base).doc, parse("rules:\n    tier:   'full'    # why\n\n# foot\nx: [1,   2]\n").doc) {
		t.Error("the same tree in other spellings differs")
	}
	for _, other := range []string{
		"rules:\n  tier: full # why not\n\n# foot\nx: [1, 2]\n",
		"rules:\n  tier: full\n\n# foot\nx: [1, 2]\n",
		"rules:\n  tier: \"1\" # why\n\n# foot\nx: [1, 2]\n",
		"rules:\n  tier: 1 # why\n\n# foot\nx: [1, 2]\n",
		"rules:\n  tier: full # why\n\n# foot\nx: [1, 2, 3]\n",
	} {
		if sameTree(parse(base).doc, parse(other).doc) {
			t.Errorf("%q reads as the same tree as %q", other, base)
		}
	}
}

// WriteAll is the updates written one after the other: each is checked
// against the file as the ones before it left it, a failure leaves the
// file as it was for the next, and each result is the state after it.
func TestWriteAllInOrder(t *testing.T) {
	fs := afero.NewMemMapFs()
	sys := coretest.New(t, coretest.Fs(fs), coretest.Home("/h")).Sys
	st := New(sys, core.Scope{Kind: core.ScopeGlobal, Path: "/h/c"})
	if err := afero.WriteFile(fs, st.Path(), []byte("rules:\n  tier: minimal\n\ngates: 5 # mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	us := []Update{
		{Set: map[string]any{"rules.tier": "full"}, Base: map[string]any{"rules.tier": "minimal"}},
		{Set: map[string]any{"rules.tier": "balanced"}, Base: map[string]any{"rules.tier": "minimal"}}, // stale now
		{Set: map[string]any{"gates.on_failure": "warn"}},                                              // gates holds a value
		{Set: map[string]any{"worktrees.mode": "on"}, Base: map[string]any{"worktrees.mode": "ask"}},
		{Set: map[string]any{"rules.tier": "bogus"}},
		{Set: map[string]any{"rules.tier": "balanced"}, Base: map[string]any{"rules.tier": "full"}},
	}
	res := st.WriteAll(us)
	wantErr := []string{"", core.CodeStaleETag, core.CodeScalarParent, "", core.CodeInvalidValue, ""}
	for i, r := range res {
		if got := core.ErrorCode(r.Err); r.Err != nil && got != wantErr[i] || r.Err == nil && wantErr[i] != "" {
			t.Errorf("update %d: %v (%s), want %s", i, r.Err, got, wantErr[i])
		}
	}
	if v := res[0].Snapshot.Values["rules.tier"]; v != "full" {
		t.Errorf("after the first: %v", v)
	}
	if v := res[3].Snapshot.Values; v["rules.tier"] != "full" || v["worktrees.mode"] != "on" {
		t.Errorf("after the fourth: %v %v", v["rules.tier"], v["worktrees.mode"])
	}
	got, _ := afero.ReadFile(fs, st.Path())
	if want := "rules:\n  tier: balanced\ngates: 5 # mine\nworktrees:\n  mode: \"on\"\n"; string(got) != want {
		t.Errorf("file:\n%q\nwant\n%q", got, want)
	}
}
