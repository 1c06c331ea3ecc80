package agenttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// The Anthropic Messages API as Claude Code 2.1 calls it with
// ANTHROPIC_BASE_URL: POST /v1/messages?beta=true, streamed as server-sent
// events (with CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 a `-p` run sends
// nothing else). The mock answers each turn with a short final text, so
// the agent ends its turn, or with a Read tool call when the prompt says
// MOCK-READ:PATH and no tool result came back yet (that drives a glob
// rule). count_tokens gets a harmless count.

func init() {
	routes["/v1/messages"] = serveAnthropic
	routes["/v1/messages/count_tokens"] = serveAnthropicCount
}

// anthropicReply is the text the mock answers Claude Code with.
const anthropicReply = "done"

// anthropicRequest is the part of a Messages API request the mock reads.
type anthropicRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"` // a string or a list of blocks
	} `json:"messages"`
}

// readPrompt finds the file a prompt asks the mock to have read.
var readPrompt = regexp.MustCompile(`MOCK-READ:([A-Za-z0-9_./-]+)`)

// toolRead is the path the mock asks Claude Code to Read, or "": only when
// the first user message names one and no tool result came back yet.
func (q anthropicRequest) toolRead() string {
	if len(q.Messages) == 0 {
		return ""
	}
	for _, msg := range q.Messages {
		if strings.Contains(string(msg.Content), `"tool_result"`) {
			return ""
		}
	}
	if m := readPrompt.FindSubmatch(q.Messages[0].Content); m != nil {
		return string(m[1])
	}
	return ""
}

func serveAnthropic(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
	var q anthropicRequest
	if err := json.Unmarshal(body, &q); err != nil {
		http.Error(w, "the body is no JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	id := fmt.Sprintf("msg_%d", len(m.Requests()))
	block := map[string]any{"type": "text", "text": anthropicReply}
	stop := "end_turn"
	if path := q.toolRead(); path != "" {
		block = map[string]any{"type": "tool_use", "id": "toolu_" + id, "name": "Read", "input": map[string]any{"file_path": path}}
		stop = "tool_use"
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 1}
	if !q.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": id, "type": "message", "role": "assistant", "model": q.Model,
			"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	// A streamed block starts empty; its content comes as one delta.
	start, delta := map[string]any{"type": "text", "text": ""}, map[string]any{"type": "text_delta", "text": anthropicReply}
	if stop == "tool_use" {
		input, _ := json.Marshal(block["input"])
		start = map[string]any{"type": "tool_use", "id": block["id"], "name": "Read", "input": map[string]any{}}
		delta = map[string]any{"type": "input_json_delta", "partial_json": string(input)}
	}
	events := []map[string]any{
		{"type": "message_start", "message": map[string]any{"id": id, "type": "message", "role": "assistant", "model": q.Model,
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}},
		{"type": "content_block_start", "index": 0, "content_block": start},
		{"type": "content_block_delta", "index": 0, "delta": delta},
		{"type": "content_block_stop", "index": 0},
		{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 1}},
		{"type": "message_stop"},
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	for _, e := range events {
		data, _ := json.Marshal(e)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e["type"], data)
	}
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func serveAnthropicCount(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"input_tokens":%d}`, len(body)/4+1)
}

// anthropicTurns are the Messages API requests Claude Code sent, in
// order: its turns, not count_tokens.
func anthropicTurns(m *Mock) []Request {
	var out []Request
	for _, r := range m.Requests() {
		if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/v1/messages") {
			out = append(out, r)
		}
	}
	return out
}

// anthropicTurn is the text of Claude Code's request i (system prompt,
// messages, tool descriptions, JSON-decoded), or fails the test.
func anthropicTurn(t *testing.T, m *Mock, i int) string {
	t.Helper()
	turns := anthropicTurns(m)
	if len(turns) <= i {
		t.Fatalf("Claude Code sent %d Messages API requests, want more than %d; requests: %s", len(turns), i, requestLines(m))
	}
	return modelText(t, turns[i].Body)
}

// lastUserText is the text of request i's last message, what the agent
// added to the conversation for that request (a tool result, a hook's
// feedback), JSON-decoded.
func lastUserText(t *testing.T, m *Mock, i int) string {
	t.Helper()
	turns := anthropicTurns(m)
	if len(turns) <= i {
		t.Fatalf("Claude Code sent %d Messages API requests, want more than %d; requests: %s", len(turns), i, requestLines(m))
	}
	var q anthropicRequest
	if err := json.Unmarshal(turns[i].Body, &q); err != nil || len(q.Messages) == 0 {
		t.Fatalf("request %d has no messages: %v", i, err)
	}
	return modelText(t, q.Messages[len(q.Messages)-1].Content)
}
