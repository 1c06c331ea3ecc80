package agenttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// The OpenAI Responses API as Codex 0.169 speaks it with
// wire_api = "responses": POST {base_url}/responses with "stream": true,
// answered as server-sent events. The mock answers every turn with one
// short assistant message, so the agent ends its turn.

func init() { routes["/responses"] = serveResponses }

// responsesReply is the text the mock answers Codex with.
const responsesReply = "MOCK-REPLY-ok"

func serveResponses(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
	var req struct {
		Model string `json:"model"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "the body is no JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	// Ids from the request count, so a test can tell turns apart without
	// the mock keeping state.
	n := len(m.Requests())
	resp := fmt.Sprintf("resp_%d", n)
	item := fmt.Sprintf("msg_%d", n)
	message := map[string]any{"type": "message", "id": item, "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": responsesReply, "annotations": []any{}}}}
	usage := map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 2, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 12}
	events := []map[string]any{
		{"type": "response.created", "response": map[string]any{"id": resp, "object": "response", "status": "in_progress", "model": req.Model, "output": []any{}}},
		{"type": "response.output_item.added", "output_index": 0,
			"item": map[string]any{"type": "message", "id": item, "role": "assistant", "status": "in_progress", "content": []any{}}},
		{"type": "response.content_part.added", "item_id": item, "output_index": 0, "content_index": 0,
			"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}},
		{"type": "response.output_text.delta", "item_id": item, "output_index": 0, "content_index": 0, "delta": responsesReply},
		{"type": "response.output_text.done", "item_id": item, "output_index": 0, "content_index": 0, "text": responsesReply},
		{"type": "response.output_item.done", "output_index": 0, "item": message},
		{"type": "response.completed", "response": map[string]any{"id": resp, "object": "response", "status": "completed",
			"model": req.Model, "output": []any{message}, "usage": usage}},
	}
	for i, e := range events {
		e["sequence_number"] = i
		data, _ := json.Marshal(e)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e["type"], data)
	}
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// responsesTurns are the Responses API requests Codex sent, in order.
func responsesTurns(m *Mock) []Request {
	var out []Request
	for _, r := range m.Requests() {
		if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/responses") {
			out = append(out, r)
		}
	}
	return out
}

// firstResponsesTurn is the text of Codex's first request of the turn:
// its instructions, developer and user messages and tool descriptions,
// JSON-decoded (see modelText).
func firstResponsesTurn(t *testing.T, m *Mock) string {
	t.Helper()
	turns := responsesTurns(m)
	if len(turns) == 0 {
		t.Fatalf("Codex sent no Responses API request; requests: %s", requestLines(m))
	}
	return modelText(t, turns[0].Body)
}
