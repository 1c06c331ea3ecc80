package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
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
		st := New(coretest.New(t, coretest.Fs(afero.NewMemMapFs()), coretest.Home("/h")).Sys, core.Scope{Kind: core.ScopeGlobal, Path: "/h/c"})
		snap, err := st.Write(Update{Set: map[string]any{key: v}})
		if err != nil {
			t.Fatalf("write %v: %v", v, err)
		}
		if !equalValue(snap.Values[key], v) {
			t.Fatalf("file round trip of %v gave %v", v, snap.Values[key])
		}
	})
}

// Loading any bytes never panics: a file is read, or every problem is
// reported with its path.
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
		"rules:\n  tier: full\n  tier: minimal\n",
		"rules: 5\nrules.tier: full\n",
		"a: 1\n---\nb: 2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fs := afero.NewMemMapFs()
		sc := core.Scope{Kind: core.ScopeGlobal, Path: "/h/c"}
		st := New(coretest.New(t, coretest.Fs(fs), coretest.Home("/h")).Sys, sc)
		afero.WriteFile(fs, st.Path(), data, 0o600)
		snap, err := st.Read()
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) || fe.Path != st.Path() || len(fe.Problems) == 0 {
				t.Fatalf("unexpected error: %v", err)
			}
			for _, p := range fe.Problems {
				if p.File != st.Path() || p.Message == "" {
					t.Fatalf("problem without file or message: %+v", p)
				}
			}
			return
		}
		if len(snap.Values) != len(schema()) {
			t.Fatalf("%d values", len(snap.Values))
		}
	})
}

// An edit of any file either fails, leaving the file as it was, or gives a
// file that reads back, holds the new value and still has every comment
// that was not on the key edited.
func FuzzEdit(f *testing.F) {
	for _, s := range []string{
		"",
		"# only a comment\n",
		"# head\n\nrules:\n  # about tier\n  tier: full # inline\n  # end of rules\ngates: # gates\n  on_failure: ask\n# foot\n",
		"rules.tier: minimal\ncommands.suggestions:\n  enabled: false # off\nx: [1, 2]\n",
		"rules: 5 # my note\n",
		"rules: # empty for now\n",
		"rules:\n  tier: extreme # why\n",
		"rules:\n  tier: full\n  tier: minimal\n",
		"\xef\xbb\xbfrules:\r\n  tier: full\r\n# foot\r\n",
		"a: &x {b: 1}\ncost: *x\n",
		"skills:\n  disabled:\n    - a # first\n    - b\n",
	} {
		for op := range uint8(4) {
			f.Add([]byte(s), op*5)
		}
	}
	names := Names()
	f.Fuzz(func(t *testing.T, data []byte, op uint8) {
		fs := afero.NewMemMapFs()
		sc := core.Scope{Kind: core.ScopeGlobal, Path: "/h/c"}
		st := New(coretest.New(t, coretest.Fs(fs), coretest.Home("/h")).Sys, sc)
		afero.WriteFile(fs, st.Path(), data, 0o600)
		key := names[int(op>>1)%len(names)]
		k, _ := Lookup(key)
		u := Update{Unset: []string{key}}
		v := sampleValue(k, int(op))
		if op&1 == 0 {
			u = Update{Set: map[string]any{key: v}}
		}
		snap, err := st.Write(u)
		got, _ := afero.ReadFile(fs, st.Path())
		if err != nil {
			var fe *FileError
			var ve *ValidationError
			if !errors.As(err, &fe) && !(errors.As(err, &ve) && ve.Code() == core.CodeScalarParent) {
				t.Fatalf("unexpected error: %v", err)
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("a failed write changed the file:\n%q\n%q", data, got)
			}
			return
		}
		back, err := st.Read()
		if err != nil {
			t.Fatalf("the written file does not read back: %v\n%q", err, got)
		}
		for _, s := range []*Snapshot{snap, back} {
			if op&1 == 0 && (!equalValue(s.Values[key], v) || s.Origins[key] != st.Path()) {
				t.Fatalf("%s = %v (%s) after setting %v:\n%q", key, s.Values[key], s.Origins[key], v, got)
			}
			if op&1 == 1 && s.Origins[key] != OriginDefault {
				t.Fatalf("%s still set after unset:\n%q", key, got)
			}
		}
		if lost := missing(topComments(data), fullLineComments(got)); len(lost) > 0 {
			t.Fatalf("comments lost: %q\nbefore:\n%s\nafter:\n%s", lost, data, got)
		}
		before := loadLayer(st.Path(), data)
		after, _ := decodeFile(got)
		if lost := mustKeep(before.file, data, dropsOf(before.leaves, []string{key})).lostIn(after, got); len(lost) > 0 {
			t.Fatalf("comments lost: %q\nbefore:\n%s\nafter:\n%s", lost, data, got)
		}
		// Keys charter does not know are all still there.
		unknown := slices.Compact(slices.Sorted(slices.Values(before.unknown)))
		if !slices.Equal(unknown, back.Unknown) {
			t.Fatalf("unknown keys %q became %q:\n%q\n%q", unknown, back.Unknown, data, got)
		}
	})
}

// topComments lists the comment lines that start at the left margin: the
// file's own notes, which no edit of a setting may drop (the writer may
// indent them).
func topComments(data []byte) []string {
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	var out []string
	for line := range strings.SplitSeq(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}
