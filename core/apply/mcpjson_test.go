package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/jsonedit"
)

// Each testdata/mcpjson/NAME.in.json merged with the project entry must give
// NAME.golden.json byte for byte.
func TestMergeMCPJSONGolden(t *testing.T) {
	ins, err := filepath.Glob(filepath.Join("testdata", "mcpjson", "*.in.json"))
	if err != nil || len(ins) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in.json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := MergeMCPJSON(data, ProjectMCPEntry())
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(in, ".in.json") + ".golden.json"
			coretest.Golden(t, golden, got)
			checkMerge(t, data, got)
			// Merging again changes nothing.
			again, err := MergeMCPJSON(got, ProjectMCPEntry())
			if err != nil || !bytes.Equal(again, got) {
				t.Errorf("a second merge changed the file (%v):\n%s", err, again)
			}
		})
	}
}

// checkMerge checks the properties every merge keeps: every key and server
// other than charter's is kept with its value and order, and charter's entry
// is current.
func checkMerge(t *testing.T, before, after []byte) {
	t.Helper()
	if len(bytes.TrimSpace(before)) == 0 {
		before = []byte("{}")
	}
	b, braw := orderedKeys(t, before)
	a, araw := orderedKeys(t, after)
	for _, k := range b {
		if !contains(a, k) {
			t.Errorf("key %q was lost", k)
		}
		// Everything but charter's entry keeps its very bytes.
		if k != "mcpServers" && k != "mcpServers."+MCPServerName && araw[k] != braw[k] {
			t.Errorf("%s was rewritten: %s became %s", k, braw[k], araw[k])
		}
	}
	if !isSubsequence(b, a) {
		t.Errorf("key order changed: %v became %v", b, a)
	}
	var bm, am map[string]any
	json.Unmarshal(before, &bm)
	if err := json.Unmarshal(after, &am); err != nil {
		t.Fatalf("merged file is not JSON: %v", err)
	}
	for k, v := range bm {
		if k != "mcpServers" && !reflect.DeepEqual(am[k], v) {
			t.Errorf("key %q changed: %v became %v", k, v, am[k])
		}
	}
	bs, _ := bm["mcpServers"].(map[string]any)
	as := am["mcpServers"].(map[string]any)
	for name, v := range bs {
		if name != MCPServerName && !reflect.DeepEqual(as[name], v) {
			t.Errorf("server %q changed: %v became %v", name, v, as[name])
		}
	}
	c := as[MCPServerName].(map[string]any)
	if c["type"] != "stdio" || c["command"] != "charter" || !reflect.DeepEqual(c["args"], []any{"mcp"}) {
		t.Errorf("charter's entry is not current: %v", c)
	}
	if old, ok := bs[MCPServerName].(map[string]any); ok && old["env"] != nil && !reflect.DeepEqual(c["env"], old["env"]) {
		t.Errorf("charter's env was not kept: %v", c)
	}
}

// orderedKeys lists the keys of the top level and of mcpServers, as
// "key" and "mcpServers.name", in file order, with their values as written.
func orderedKeys(t *testing.T, data []byte) ([]string, map[string]string) {
	t.Helper()
	d, err := jsonedit.Open(data, func(off int, msg string) error { return fmt.Errorf("%d: %s", off, msg) })
	if err != nil || d.Root.Kind != '{' {
		t.Fatalf("not an object: %v", err)
	}
	var keys []string
	raw := map[string]string{}
	for _, m := range d.Root.Members {
		keys = append(keys, m.Key)
		raw[m.Key] = string(d.Raw(m.Val))
		if m.Key == "mcpServers" {
			if m.Val.Kind != '{' {
				t.Fatal("mcpServers is not an object")
			}
			for _, s := range m.Val.Members {
				keys = append(keys, "mcpServers."+s.Key)
				raw["mcpServers."+s.Key] = string(d.Raw(s.Val))
			}
		}
	}
	return keys, raw
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func isSubsequence(sub, list []string) bool {
	i := 0
	for _, x := range list {
		if i < len(sub) && sub[i] == x {
			i++
		}
	}
	return i == len(sub)
}

func TestMergeMCPJSONCurrentIsUntouched(t *testing.T) {
	// Spacing of the user's own: a current entry leaves every byte alone.
	data := []byte("{ \"mcpServers\" : { \"charter\" : { \"args\" : [ \"mcp\" ] , \"command\":\"charter\", \"type\":\"stdio\" } } }")
	got, err := MergeMCPJSON(data, ProjectMCPEntry())
	if err != nil || !bytes.Equal(got, data) {
		t.Errorf("current file rewritten (%v):\n%s", err, got)
	}
}

func TestMergeMCPJSONUserEntry(t *testing.T) {
	got, err := MergeMCPJSON(nil, MCPEntry{Command: `/opt/my charter/bin/charter`, Args: []string{"--config-root", "/srv/ci root", "mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "mcpServers": {
    "charter": {
      "type": "stdio",
      "command": "/opt/my charter/bin/charter",
      "args": [
        "--config-root",
        "/srv/ci root",
        "mcp"
      ]
    }
  }
}
`
	if string(got) != want {
		t.Errorf("new file:\n%s\nwant:\n%s", got, want)
	}
}

func TestMergeMCPJSONErrors(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		line       int
		msg        string
	}{
		{"syntax", "{\n  \"mcpServers\": {\n    \"a\": {,}\n  }\n}\n", 3, "invalid character"},
		{"truncated", "{\n  \"mcpServers\": {\n", 3, "ends too early"},
		{"array", "[1, 2]\n", 1, "the file is not a JSON object"},
		{"string", "\"mcp\"", 1, "not a JSON object"},
		{"servers array", "{\n  \"mcpServers\": []\n}", 2, `"mcpServers" is not a JSON object`},
		{"servers null", "{\"mcpServers\": null}", 1, `"mcpServers" is not a JSON object`},
		{"duplicate top", "{\"a\": 1,\n\"a\": 2}", 2, `key "a" appears twice in the file`},
		{"duplicate server", "{\"mcpServers\": {\n\"x\": {},\n\"x\": {}}}", 3, `key "x" appears twice in "mcpServers"`},
		{"duplicate in charter", "{\"mcpServers\": {\"charter\": {\"args\": [],\n\"args\": []}}}", 2, `"mcpServers"."charter"`},
		{"trailing", "{}\n{}\n", 2, "more than one JSON value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := MergeMCPJSON([]byte(tc.data), ProjectMCPEntry())
			var me *MCPJSONError
			if !errors.As(err, &me) {
				t.Fatalf("got %q, %v; want an *MCPJSONError", out, err)
			}
			if me.Line != tc.line || !strings.Contains(me.Error(), tc.msg) || me.Code() != "malformed_mcp_json" {
				t.Errorf("error %q at line %d, want line %d and %q", me.Error(), me.Line, tc.line, tc.msg)
			}
			if !strings.Contains(me.Error(), "charter will not overwrite it") {
				t.Errorf("error does not say the file is left alone: %q", me.Error())
			}
		})
	}
}

func FuzzMergeMCPJSON(f *testing.F) {
	for _, s := range []string{"", "{}", `{"mcpServers":{"a":{"command":"x"}},"b":[1,{"c":null}]}`, `{"mcpServers":{"charter":1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := MergeMCPJSON(data, ProjectMCPEntry())
		if err != nil {
			var me *MCPJSONError
			if !errors.As(err, &me) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("merge of %q is not JSON: %q", data, out)
		}
		checkMerge(t, data, out)
	})
}

// The one editor's style rules hold for .mcp.json too: a CRLF file gets
// CRLF lines, a compact one keeps its separators.
func TestMergeMCPJSONFileStyle(t *testing.T) {
	got, err := MergeMCPJSON([]byte("{\r\n  \"mcpServers\": {\r\n    \"a\": {}\r\n  }\r\n}\r\n"), ProjectMCPEntry())
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\r\n  \"mcpServers\": {\r\n    \"a\": {},\r\n    \"charter\": {\r\n      \"type\": \"stdio\",\r\n      \"command\": \"charter\",\r\n      \"args\": [\r\n        \"mcp\"\r\n      ]\r\n    }\r\n  }\r\n}\r\n"; string(got) != want {
		t.Errorf("CRLF:\n%q\nwant\n%q", got, want)
	}
	got, err = MergeMCPJSON([]byte(`{"mcpServers":{"a":{}}}`), ProjectMCPEntry())
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"mcpServers":{"a":{},"charter":{"type": "stdio", "command": "charter", "args": ["mcp"]}}}`; string(got) != want {
		t.Errorf("compact:\n%s\nwant\n%s", got, want)
	}
}
