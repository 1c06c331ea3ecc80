package gates

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// fuzzParser checks what must hold for any input: no panic, an error of the
// documented type, and counts that make a percentage between 0 and 100.
func fuzzParser(f *testing.F, seeds []string, parse func(*bufio.Reader) (Stats, error)) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := parse(bufio.NewReader(bytes.NewReader(data)))
		if err != nil {
			var re *ReportError
			if !errors.As(err, &re) {
				t.Fatalf("error of the wrong type %T: %v", err, err)
			}
			return
		}
		if st.Covered < 0 || st.Total < 0 || st.Covered > st.Total {
			t.Fatalf("impossible counts %+v", st)
		}
		// The full path (detection, empty check) must agree or refuse.
		if all, err := ParseReport(bytes.NewReader(data)); err == nil && all.Format == st.Format && all != st {
			t.Fatalf("ParseReport %+v, parser %+v", all, st)
		}
	})
}

func fixture(f *testing.F, name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", "coverage", name))
	if err != nil {
		f.Fatal(err)
	}
	return string(b)
}

func FuzzParseGo(f *testing.F) {
	fuzzParser(f, []string{
		fixture(f, "go-merged.out"), "mode: set\n", "mode: count\nx.go:1.1,2.2 3 0\nx.go:1.1,2.2 3 7\n",
		"mode: set\nx:1.1,1.1 0 0", "mode: set\nmode: set\n:1.1,2.2 1 1\n",
	}, parseGo)
}

func FuzzParseLCOV(f *testing.F) {
	fuzzParser(f, []string{
		fixture(f, "lcov-mixed.info"), "SF:a\nend_of_record\n", "SF:a\nLF:3\nLH:1\nDA:1,1\nend_of_record\n",
		"TN:\nSF:\nDA:0,0,x\nend_of_record", "SF:a\nDA:1,99999999999999999999999\nend_of_record\n",
	}, parseLCOV)
}

func FuzzParseCobertura(f *testing.F) {
	fuzzParser(f, []string{
		fixture(f, "cobertura-totals.xml"), fixture(f, "cobertura-lines.xml"),
		`<coverage lines-valid="3" lines-covered="1"/>`, `<coverage><class><methods><line hits="1"/></methods></class></coverage>`,
		`<coverage><class><line hits="0"/></class>`, `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><coverage/>`,
	}, parseCobertura)
}

// Whatever the file, EnsureStopHook refuses it with a SettingsError or
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
		added, err := EnsureStopHook(data, hook, true)
		if err != nil {
			var se *SettingsError
			if !errors.As(err, &se) {
				t.Fatalf("error of the wrong type %T: %v", err, err)
			}
			if _, err2 := EnsureStopHook(data, hook, false); err2 == nil {
				t.Fatalf("add refused (%v) but remove accepted", err)
			}
			return
		}
		entries := func(b []byte) (n int, doc any) {
			b = bytes.TrimPrefix(b, []byte(bom))
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatalf("invalid JSON %v:\n%q", err, b)
			}
			return len(charterHooks(doc)), doc
		}
		_, doc := entries(added)
		if hs := charterHooks(doc); len(hs) != 1 || hs[0]["command"] != cmd || hs[0]["timeout"] != float64(hook.Timeout) {
			t.Fatalf("charter entries after add %v:\n%s", hs, added)
		}
		if again, _ := EnsureStopHook(added, hook, true); !bytes.Equal(again, added) {
			t.Fatalf("add is not idempotent:\n%s\n%s", added, again)
		}
		removed, err := EnsureStopHook(added, hook, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte(bom)))) == 0 {
			return
		}
		direct, err := EnsureStopHook(data, hook, false)
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
			if c, ok := hm["command"].(string); ok && IsCharterHook(c) {
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
