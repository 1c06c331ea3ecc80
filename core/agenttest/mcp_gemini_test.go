package agenttest

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// Gemini CLI 0.61 declares an MCP server's tools among its function
// declarations as mcp_SERVER_TOOL, but in a headless run (`gemini -p`)
// only a trusted server's: that is why charter's snippet says trust. The
// checks run the printed `gemini mcp add` line and merge the printed JSON,
// each trusted, and the same JSON without trust.

// geminiMCPPrefix is the base URL path under which the mock calls
// charter's rules_list before it answers (see serveGeminiMCP).
const geminiMCPPrefix = "/mcp-call-gemini"

func init() { routes[geminiMCPPrefix+"/v1beta/models/"] = serveGeminiMCP }

// geminiTool is charter's tool as Gemini CLI names it.
func geminiTool(tool string) string { return "mcp_charter_" + tool }

// serveGeminiMCP answers a turn with a call of charter's rules_list until
// a function response came back; everything else as the plain mock does.
func serveGeminiMCP(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
	switch {
	case strings.HasSuffix(r.URL.Path, ":countTokens"):
		serveGeminiCount(m, w, r, body)
		return
	case !strings.HasSuffix(r.URL.Path, ":streamGenerateContent") || strings.Contains(string(body), `"functionResponse"`):
		serveGemini(m, w, r, body)
		return
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP", "content": map[string]any{"role": "model",
			"parts": []any{map[string]any{"functionCall": map[string]any{"name": geminiTool("rules_list"), "args": map[string]any{}}}}}}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 2, "totalTokenCount": 12},
	}
	data, _ := json.Marshal(resp)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Write([]byte("data: " + string(data) + "\n\n"))
}

// runGeminiOK runs r's Gemini CLI against a new mock under prefix and
// fails unless the run ends with the mock's reply.
func runGeminiOK(t *testing.T, r *rig, prefix string) *Mock {
	t.Helper()
	m, out := r.run(prefix)
	if !strings.Contains(out, geminiReply) {
		t.Fatalf("gemini -p hi:\n%s\nrequests: %s", out, requestLines(m))
	}
	return m
}

// lastGeminiContent is the text of the last content of Gemini CLI's turn
// request i, JSON-decoded.
func lastGeminiContent(t *testing.T, m *Mock, i int) string {
	t.Helper()
	turns := geminiTurns(m)
	if len(turns) <= i {
		t.Fatalf("Gemini CLI sent %d turn requests, want more than %d; requests: %s", len(turns), i, requestLines(m))
	}
	var req struct {
		Contents []json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(turns[i].Body, &req); err != nil || len(req.Contents) == 0 {
		t.Fatalf("turn request %d has no contents: %v", i, err)
	}
	return modelText(t, req.Contents[len(req.Contents)-1])
}

// TestGeminiUserMCPAdd: the `gemini mcp add --scope user --trust …` line
// `charter mcp --print-config gemini` prints, run in a shell with the
// world's HOME, registers charter: `gemini -p` declares each of charter's
// tools once, and a call of rules_list brings the project's rule back.
func TestGeminiUserMCPAdd(t *testing.T) {
	r := newRig(t, "gemini", newMCPWorld(t))
	line := snippetLine(t, printConfig(t, r.w, r.env, "gemini"), "gemini mcp add ")
	shellRun(t, r.w, r.env, line)
	m := runGeminiOK(t, r, geminiMCPPrefix)
	t.Logf("ran: %s", line)

	t.Run("tools", func(t *testing.T) { toolsOnce(t, firstGeminiTurn(t, m), charterTools(t, r.w, r.env), geminiTool) })
	t.Run("call", func(t *testing.T) {
		result := lastGeminiContent(t, m, 1)
		if !strings.Contains(result, mcpRule) {
			t.Fatalf("the result of %s does not name rule %s:\n%s", geminiTool("rules_list"), mcpRule, result)
		}
		t.Logf("tool result: %s", lineOf(result, mcpRule))
	})
}

// TestGeminiUserMCPJSON: the JSON `charter mcp --print-config gemini`
// prints, merged into ~/.gemini/settings.json, registers charter: each
// tool declared once. The same entry without "trust": true hides every
// tool from the model in a headless run.
func TestGeminiUserMCPJSON(t *testing.T) {
	r := newRig(t, "gemini", newMCPWorld(t))
	snippet := printConfig(t, r.w, r.env, "gemini")
	var printed struct {
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	brace := strings.Index(snippet, "{")
	if brace < 0 {
		t.Fatalf("the snippet has no JSON:\n%s", snippet)
	}
	if err := json.Unmarshal([]byte(snippet[brace:]), &printed); err != nil {
		t.Fatalf("the snippet's JSON: %v\n%s", err, snippet)
	}
	entry := printed.MCPServers["charter"]
	if entry["trust"] != true {
		t.Fatalf("the printed entry is not trusted: %v", entry)
	}
	tools := charterTools(t, r.w, r.env)
	for _, trusted := range []bool{true, false} {
		name := map[bool]string{true: "trusted", false: "untrusted"}[trusted]
		t.Run(name, func(t *testing.T) {
			if !trusted {
				delete(entry, "trust")
			}
			data, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"charter": entry}})
			write(t, filepath.Join(r.w.home, ".gemini"), "settings.json", string(data))
			m := runGeminiOK(t, r.in(t), "") // its run merges the auth type, keeps the entry
			sent := firstGeminiTurn(t, m)
			if trusted {
				toolsOnce(t, sent, tools, geminiTool)
				return
			}
			for _, tool := range tools {
				if n := count(sent, geminiTool(tool)); n != 0 {
					t.Errorf("untrusted: %s reached the model %d times, want hidden", geminiTool(tool), n)
				}
			}
			t.Logf("untrusted: none of %d charter tools reached the model", len(tools))
		})
	}
}
