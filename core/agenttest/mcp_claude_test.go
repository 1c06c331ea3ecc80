package agenttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// Claude Code 2.1 defers MCP tools behind its ToolSearch: the first
// request names each one in the list of deferred tools ("The following
// deferred tools are now available via ToolSearch"), as mcp__SERVER__TOOL,
// without its schema. The checks assert each of charter's tools is in that
// list once, and drive one call of rules_list to see its result come back.

// claudeMCPPrefix is the base URL path under which the mock calls charter's
// rules_list before it answers (see serveAnthropicMCP).
const claudeMCPPrefix = "/mcp-call"

func init() { routes[claudeMCPPrefix+"/v1/messages"] = serveAnthropicMCP }

// claudeTool is charter's tool as Claude Code names it.
func claudeTool(tool string) string { return "mcp__charter__" + tool }

// serveAnthropicMCP answers with a call of charter's rules_list until a
// tool result came back, then as serveAnthropic does (a final text).
func serveAnthropicMCP(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
	var q anthropicRequest
	if err := json.Unmarshal(body, &q); err != nil {
		http.Error(w, "the body is no JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	for _, msg := range q.Messages {
		if strings.Contains(string(msg.Content), `"tool_result"`) {
			serveAnthropic(m, w, r, body)
			return
		}
	}
	id := fmt.Sprintf("msg_%d", len(m.Requests()))
	usage := map[string]any{"input_tokens": 10, "output_tokens": 1}
	events := []map[string]any{
		{"type": "message_start", "message": map[string]any{"id": id, "type": "message", "role": "assistant", "model": q.Model,
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}},
		{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "tool_use", "id": "toolu_" + id,
			"name": claudeTool("rules_list"), "input": map[string]any{}}},
		{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": "{}"}},
		{"type": "content_block_stop", "index": 0},
		{"type": "message_delta", "delta": map[string]any{"stop_reason": "tool_use", "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 1}},
		{"type": "message_stop"},
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for _, e := range events {
		data, _ := json.Marshal(e)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e["type"], data)
	}
}

// TestClaudeProjectMCP: `charter apply --project --agent claude` writes
// .mcp.json with a charter server; `claude -p` in the project lists each of
// charter's tools once among its deferred tools, and a call of rules_list
// brings the project's rule back to the model.
func TestClaudeProjectMCP(t *testing.T) {
	r := newRig(t, "claude", newMCPWorld(t))
	r.apply("project")
	tools := charterTools(t, r.w, r.env)
	// -p asks for no permission: the user grants the tool, as in a script.
	m, _ := r.run(claudeMCPPrefix, "--allowedTools", claudeTool("rules_list"))

	t.Run("tools", func(t *testing.T) { toolsOnce(t, anthropicTurn(t, m, 0), tools, claudeTool) })
	t.Run("call", func(t *testing.T) {
		result := lastUserText(t, m, 1)
		if !strings.Contains(result, mcpRule) {
			t.Fatalf("the result of %s does not name rule %s:\n%s", claudeTool("rules_list"), mcpRule, result)
		}
		t.Logf("tool result: %s", lineOf(result, mcpRule))
	})
}

// TestClaudeUserMCP: each command `charter mcp --print-config claude`
// prints (claude mcp add, claude mcp add-json), run in a shell with the
// world's HOME, registers charter for every project: `claude -p` in a
// project charter never applied lists each of charter's tools once; and
// still once after apply --project adds the project's .mcp.json entry of
// the same name.
func TestClaudeUserMCP(t *testing.T) {
	for _, prefix := range []string{"claude mcp add ", "claude mcp add-json "} {
		t.Run(strings.Fields(prefix)[2], func(t *testing.T) {
			r := newRig(t, "claude", newMCPWorld(t), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1")
			line := snippetLine(t, printConfig(t, r.w, r.env, "claude"), prefix)
			shellRun(t, r.w, r.env, line)
			m, _ := r.run("")
			t.Logf("ran: %s", line)
			tools := charterTools(t, r.w, r.env)
			toolsOnce(t, anthropicTurn(t, m, 0), tools, claudeTool)
			t.Run("and-project", func(t *testing.T) {
				r := r.in(t)
				r.apply("project")
				m, _ := r.run("")
				toolsOnce(t, anthropicTurn(t, m, 0), tools, claudeTool)
			})
		})
	}
}
