package mcpserver

import (
	"context"
	"encoding/json"
	"testing"
)

// Every tool's input schema gives each value one type: the Inspector's
// strict mode warns on a type array (issue 38: gates_run's gates was
// ["null","array"]).
func TestInputSchemasHaveOneType(t *testing.T) {
	e := newEnv(t)
	cs := connect(t, e.server(), newClient(noRoots), "")
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if ts, ok := v["type"].([]any); ok {
				t.Errorf("%s: type %v", path, ts)
			}
			for k, c := range v {
				walk(path+"."+k, c)
			}
		case []any:
			for _, c := range v {
				walk(path, c)
			}
		}
	}
	seen := false
	for _, tool := range tools.Tools {
		data, _ := json.Marshal(tool.InputSchema)
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		walk(tool.Name, doc)
		if tool.Name == "gates_run" {
			seen = true
			gates, _ := doc["properties"].(map[string]any)["gates"].(map[string]any)
			if gates["type"] != "array" {
				t.Errorf("gates_run.gates: %v", gates)
			}
		}
	}
	if !seen {
		t.Fatal("no gates_run tool")
	}
}
