package agenttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// The OpenAI Chat Completions API as Copilot CLI 1.0's bring-your-own-key
// provider calls it (COPILOT_PROVIDER_BASE_URL=…/v1): POST
// /v1/chat/completions, streamed with "stream": true and
// stream_options.include_usage, else one JSON object. The mock answers
// each turn with one short final text, so the agent ends its turn.

func init() { routes["/chat/completions"] = serveChat }

// chatReply is the text the mock answers a Chat Completions client with.
const chatReply = "MOCK-CHAT-done"

func serveChat(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
	var q struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	if err := json.Unmarshal(body, &q); err != nil {
		http.Error(w, "the body is no JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	id := fmt.Sprintf("chatcmpl-%d", len(m.Requests()))
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11}
	if !q.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": id, "object": "chat.completion", "created": 1, "model": q.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": chatReply}}},
			"usage": usage})
		return
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1, "model": q.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	last := chunk(map[string]any{}, "stop")
	last["usage"] = usage
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	for _, c := range []map[string]any{chunk(map[string]any{"role": "assistant", "content": chatReply}, nil), last} {
		data, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", data)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// chatTurns are the Chat Completions requests the agent sent, in order.
func chatTurns(m *Mock) []Request {
	var out []Request
	for _, r := range m.Requests() {
		if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/chat/completions") {
			out = append(out, r)
		}
	}
	return out
}

// firstChatTurn is the text of the agent's first Chat Completions request:
// system and user messages and tool descriptions, JSON-decoded.
func firstChatTurn(t *testing.T, m *Mock) string {
	t.Helper()
	turns := chatTurns(m)
	if len(turns) == 0 {
		t.Fatalf("no Chat Completions request reached the mock; requests: %s", requestLines(m))
	}
	return modelText(t, turns[0].Body)
}
