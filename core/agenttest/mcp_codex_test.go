package agenttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// Codex 0.169 defers an MCP server's tools: the first request names only
// the server's namespace ("Deferred tool namespaces: - mcp__charter: …",
// with the server's instructions), and the model reaches the tools
// through the `exec` tool, a JavaScript sandbox whose ALL_TOOLS lists them
// and whose tools object calls them. So the mock answers the first turn
// with an exec call that prints ALL_TOOLS' charter names and the result of
// rules_list; what comes back is what the model can see and use.

// codexMCPPrefix is the base URL path under which the mock drives exec.
const codexMCPPrefix = "/mcp-exec"

func init() { routes[codexMCPPrefix+"/v1/responses"] = serveResponsesMCP }

// codexTool is charter's tool as Codex names it.
func codexTool(tool string) string { return "mcp__charter__" + tool }

// codexExecScript lists the charter tools exec can see, one a line, then
// calls rules_list.
var codexExecScript = `const names = ALL_TOOLS.map((t) => t.name).filter((n) => n.includes("charter"));
text("TOOLS:\n" + names.join("\n") + "\nEND-TOOLS");
const result = await tools.` + codexTool("rules_list") + `({});
text("RESULT: " + JSON.stringify(result));`

// serveResponsesMCP answers with one exec call until its output came back,
// then as serveResponses does (a final message).
func serveResponsesMCP(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
	serveExec(codexExecScript)(m, w, r, body)
}

// serveExec answers with one exec call of script until its output came
// back, then as serveResponses does.
func serveExec(script string) route {
	return func(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
		serveExecOnce(script, m, w, r, body)
	}
}

func serveExecOnce(script string, m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
	var req struct {
		Model string `json:"model"`
		Input []struct {
			Type string `json:"type"`
		} `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "the body is no JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	for _, in := range req.Input {
		if in.Type == "custom_tool_call_output" {
			serveResponses(m, w, r, body)
			return
		}
	}
	n := len(m.Requests())
	resp := fmt.Sprintf("resp_%d", n)
	call := map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_%d", n), "call_id": fmt.Sprintf("call_%d", n),
		"name": "exec", "input": script, "status": "completed"}
	usage := map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 2, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 12}
	events := []map[string]any{
		{"type": "response.created", "response": map[string]any{"id": resp, "object": "response", "status": "in_progress", "model": req.Model, "output": []any{}}},
		{"type": "response.output_item.added", "output_index": 0, "item": call},
		{"type": "response.output_item.done", "output_index": 0, "item": call},
		{"type": "response.completed", "response": map[string]any{"id": resp, "object": "response", "status": "completed",
			"model": req.Model, "output": []any{call}, "usage": usage}},
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for i, e := range events {
		e["sequence_number"] = i
		data, _ := json.Marshal(e)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e["type"], data)
	}
}

// execOutput is the text of the output of the mock's exec call in Codex's
// second request, or fails the test.
func execOutput(t *testing.T, m *Mock) string {
	t.Helper()
	turns := responsesTurns(m)
	if len(turns) < 2 {
		t.Fatalf("Codex sent %d Responses API requests, want 2 (the exec call's output); requests: %s", len(turns), requestLines(m))
	}
	var req struct {
		Input []json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(turns[1].Body, &req); err != nil {
		t.Fatal(err)
	}
	for _, in := range req.Input {
		var item struct{ Type string }
		if json.Unmarshal(in, &item) == nil && item.Type == "custom_tool_call_output" {
			return modelText(t, in)
		}
	}
	t.Fatalf("Codex's second request carries no output of the exec call")
	return ""
}

// TestCodexUserMCP: what `charter mcp --print-config codex` prints,
// appended to $CODEX_HOME/config.toml, registers charter: `codex exec`
// names charter's namespace once among its deferred tools, exec's
// ALL_TOOLS lists each of charter's tools once, and a call of rules_list
// brings the project's rule back to the model.
func TestCodexUserMCP(t *testing.T) {
	r := newRig(t, "codex", newMCPWorld(t))
	write(t, filepath.Join(r.w.home, ".codex"), "config.toml", printConfig(t, r.w, r.env, "codex"))
	tools := charterTools(t, r.w, r.env)
	m, _ := r.run(codexMCPPrefix)
	t.Run("namespace", func(t *testing.T) {
		seenOnce(t, firstResponsesTurn(t, m), "mcp__charter:", "charter's deferred tool namespace")
	})
	output := execOutput(t, m)
	t.Run("tools", func(t *testing.T) {
		start, end := strings.Index(output, "TOOLS:\n"), strings.Index(output, "END-TOOLS")
		if start < 0 || end < start {
			t.Fatalf("exec printed no tool list:\n%s", output)
		}
		toolsOnce(t, output[start:end], tools, codexTool)
	})
	t.Run("call", func(t *testing.T) {
		if !strings.Contains(output, "RESULT: ") || !strings.Contains(output, mcpRule) {
			t.Fatalf("the result of %s does not name rule %s:\n%s", codexTool("rules_list"), mcpRule, output)
		}
		t.Logf("tool result: %s", lineOf(output, mcpRule))
	})
}

// tomlQuote is s as a TOML basic string (JSON's escapes are TOML's).
func tomlQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
