package settings

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
)

// The value parsers never panic, and what they accept passes validation
// and survives a trip through the YAML file.
func FuzzParseValue(f *testing.F) {
	for _, s := range []string{"full", "0.6", "12.50", "-1", "1e3", "yes", "[\"a\",\"b\"]", "a,,b", "", " 7 ", "1e999999999", "0x10", "NaN"} {
		for _, k := range Names() {
			f.Add(k, s)
		}
	}
	f.Fuzz(func(t *testing.T, key, text string) {
		v, err := ParseText(key, text)
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) || len(ve.Problems) == 0 {
				t.Fatalf("error is not a validation error: %v", err)
			}
			return
		}
		k, _ := Lookup(key)
		if err := k.check(v); err != nil {
			t.Fatalf("accepted value fails its check: %v", err)
		}
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("marshal %v: %v", v, err)
		}
		back, err := ParseJSON(key, raw)
		if err != nil || !equalValue(back, v) {
			t.Fatalf("JSON round trip of %v: %v, %v", v, back, err)
		}
		st := New(core.NewSystem(afero.NewMemMapFs(), []string{"HOME=/h"}, time.Now, nil), core.Scope{Kind: core.ScopeGlobal, Path: "/h/c"})
		snap, err := st.Write(Update{Set: map[string]any{key: v}})
		if err != nil {
			t.Fatalf("write %v: %v", v, err)
		}
		if !equalValue(snap.Values[key], v) {
			t.Fatalf("file round trip of %v gave %v", v, snap.Values[key])
		}
	})
}

// Loading any bytes never panics: a file is read or reported, with its path.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		"rules:\n  tier: full\n",
		"# only a comment\n",
		"rules.tier: minimal\nx: [1, 2]\n",
		"- a\n",
		"a: &x 1\nb: *x\n",
		"rules: {tier: [a]}\n",
		"gates:\n  coverage:\n    min: 1e2\n",
		"\t",
		"rules:\n  disabled: ~\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fs := afero.NewMemMapFs()
		sc := core.Scope{Kind: core.ScopeGlobal, Path: "/h/c"}
		st := New(core.NewSystem(fs, []string{"HOME=/h"}, time.Now, nil), sc)
		afero.WriteFile(fs, st.Path(), data, 0o600)
		snap, err := st.Read()
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Path != st.Path() {
				t.Fatalf("unexpected error type: %v", err)
			}
			return
		}
		if len(snap.Values) != len(schema) {
			t.Fatalf("%d values", len(snap.Values))
		}
		// A readable file can be written, and the result reads back.
		if _, err := st.Write(Update{Set: map[string]any{"rules.tier": "full"}}); err != nil {
			t.Fatalf("write after a good read: %v", err)
		}
		if snap, err := st.Read(); err != nil || snap.Values["rules.tier"] != "full" {
			t.Fatalf("read after write: %v %v", err, snap)
		}
	})
}
