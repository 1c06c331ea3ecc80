package agenttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SPEC §14's proof in the agent itself: with a policy deny on
// `shell:git push --force` projected by charter, the mock model asks the
// agent to run `git push --force`, and the next request must carry the
// agent's refusal, not the command's output. The run grants the agent a
// wider rule first (Claude's --allowedTools "Bash(git push:*)"), as a user
// or a script would, so the refusal is charter's deny at work, not the
// headless mode's default; a control run without charter's deny shows the
// same grant lets the command run.

// forcePush is the command the mock asks for; pushPolicy is a policy that denies it.
const (
	forcePush  = "git push --force"
	pushPolicy = "permissions:\n  deny: [\"shell:git push --force\"]\n"
)

// claudeShellPrefix is the base URL path under which the mock asks Claude
// Code to run forcePush before it answers.
const claudeShellPrefix = "/shell-call"

func init() { routes[claudeShellPrefix+"/v1/messages"] = serveAnthropicShell }

// serveAnthropicShell answers with a Bash call of forcePush until a tool
// result came back, then as serveAnthropic does (a final text).
func serveAnthropicShell(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
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
	input, _ := json.Marshal(map[string]any{"command": forcePush, "description": "Force-push the branch"})
	events := []map[string]any{
		{"type": "message_start", "message": map[string]any{"id": id, "type": "message", "role": "assistant", "model": q.Model,
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}},
		{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "tool_use", "id": "toolu_" + id, "name": "Bash", "input": map[string]any{}}},
		{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}},
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

// toolResult is the tool_result block of request i's last message: whether
// the agent marked it an error, and its text.
func toolResult(t *testing.T, m *Mock, i int) (isError bool, text string) {
	t.Helper()
	turns := anthropicTurns(m)
	if len(turns) <= i {
		t.Fatalf("Claude Code sent %d Messages API requests, want more than %d; requests: %s", len(turns), i, requestLines(m))
	}
	var q anthropicRequest
	if err := json.Unmarshal(turns[i].Body, &q); err != nil || len(q.Messages) == 0 {
		t.Fatalf("request %d has no messages: %v", i, err)
	}
	var blocks []struct {
		Type    string          `json:"type"`
		IsError bool            `json:"is_error"`
		Content json.RawMessage `json:"content"`
	}
	last := q.Messages[len(q.Messages)-1].Content
	if err := json.Unmarshal(last, &blocks); err != nil {
		t.Fatalf("request %d's last message is no list of blocks: %s", i, last)
	}
	for _, b := range blocks {
		if b.Type == "tool_result" {
			return b.IsError, modelText(t, b.Content)
		}
	}
	t.Fatalf("request %d's last message holds no tool_result: %s", i, last)
	return false, ""
}

// TestClaudePolicyDenyRefuses: at project and at user level.
func TestClaudePolicyDenyRefuses(t *testing.T) {
	for _, level := range []string{"project", "user"} {
		t.Run(level, func(t *testing.T) {
			r := policyRig(t, "claude", pushPolicy)
			r.apply(level)
			file := filepath.Join(r.dir(level), ".claude", "settings.json")
			data, err := os.ReadFile(file)
			if err != nil || !strings.Contains(string(data), `"Bash(git push --force:*)"`) {
				t.Fatalf("%s does not deny Bash(git push --force:*): %v\n%s", file, err, data)
			}
			m, _ := r.run(claudeShellPrefix, "--allowedTools", "Bash(git push:*)")
			isErr, text := toolResult(t, m, 1)
			t.Logf("Claude Code's tool result: is_error %v: %s", isErr, strings.TrimSpace(text))
			if !isErr || !strings.Contains(strings.ToLower(text), "denied") || strings.Contains(text, "fatal") {
				t.Errorf("the next request carries no refusal of %q:\n%s", forcePush, text)
			}
		})
	}
	t.Run("control-without-deny", func(t *testing.T) {
		m, _ := policyRig(t, "claude", "").run(claudeShellPrefix, "--allowedTools", "Bash(git push:*)")
		_, text := toolResult(t, m, 1)
		t.Logf("Claude Code's tool result: %s", strings.TrimSpace(text))
		if strings.Contains(strings.ToLower(text), "denied") || !strings.Contains(text, "fatal") {
			t.Errorf("without charter's deny, the grant should let git run (its error, not a refusal):\n%s", text)
		}
	})
}
