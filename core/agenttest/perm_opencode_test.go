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

// SPEC §14's proof in OpenCode, Kilo Code and Qwen Code, which speak Chat
// Completions to the mock: the server list after `charter apply
// --project` (the allowed server's tools reach the model, the other's do
// not), and the policy's shell deny (the mock asks for `git push --force`
// and the next request carries the agent's refusal, not git's output).

// chatShellPrefix is the base URL path under which the mock answers a
// turn with a call of the agent's shell tool (the path's last part names
// it: bash, run_shell_command) until a tool result came back.
const chatShellPrefix = "/chat-shell-"

func init() {
	for _, tool := range []string{"bash", "run_shell_command"} {
		routes[chatShellPrefix+tool+"/v1/chat/completions"] = serveChatToolCall(tool)
	}
}

func serveChatToolCall(tool string) route {
	return func(m *Mock, w http.ResponseWriter, r *http.Request, body []byte) {
		var q struct {
			Model    string `json:"model"`
			Stream   bool   `json:"stream"`
			Tools    []any  `json:"tools"`
			Messages []struct {
				Role string `json:"role"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &q); err != nil {
			http.Error(w, "the body is no JSON: "+err.Error(), http.StatusBadRequest)
			return
		}
		answered := false
		for _, msg := range q.Messages {
			answered = answered || msg.Role == "tool"
		}
		if answered || len(q.Tools) == 0 { // a title request, or the call came back
			serveChat(m, w, r, body)
			return
		}
		args, _ := json.Marshal(map[string]any{"command": forcePush, "description": "Force-push the branch", "is_background": false})
		id := fmt.Sprintf("chatcmpl-%d", len(m.Requests()))
		call := map[string]any{"index": 0, "id": "call_" + id, "type": "function",
			"function": map[string]any{"name": tool, "arguments": string(args)}}
		usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11}
		if !q.Stream {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"id": id, "object": "chat.completion", "created": 1, "model": q.Model,
				"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls",
					"message": map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}}}}, "usage": usage})
			return
		}
		chunk := func(delta map[string]any, finish any) map[string]any {
			return map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1, "model": q.Model,
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		}
		last := chunk(map[string]any{}, "tool_calls")
		last["usage"] = usage
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for _, c := range []map[string]any{chunk(map[string]any{"role": "assistant", "tool_calls": []any{call}}, nil), last} {
			data, _ := json.Marshal(c)
			fmt.Fprintf(w, "data: %s\n\n", data)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}

// chatToolResult is the content of the first tool message the agent sent
// back: what the shell call gave the model.
func chatToolResult(t *testing.T, m *Mock) string {
	t.Helper()
	for _, r := range chatTurns(m) {
		var q struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if json.Unmarshal(r.Body, &q) != nil {
			continue
		}
		for _, msg := range q.Messages {
			if msg.Role == "tool" {
				return modelText(t, msg.Content)
			}
		}
	}
	t.Fatalf("no request carried a tool result; requests: %s", requestLines(m))
	return ""
}

// gitRan says whether the tool result is git's own (the project's .git is
// empty, so git fails there: it ran).
func gitRan(result string) bool { return strings.Contains(result, "not a git repository") }

func init() {
	for _, name := range []string{"opencode", "kilo"} {
		rigs[name] = agentRig{bin: name, run: openCodeRunAt(name)}
	}
}

// openCodeRunAt runs OpenCode or Kilo (name) with `NAME run hi` against m
// under prefix, the mock a provider in the config file NAME_CONFIG names;
// the run may end either way (the requests are the proof).
func openCodeRunAt(name string) func(r *rig, m *Mock, prefix string, flags ...string) string {
	return func(r *rig, m *Mock, prefix string, flags ...string) string {
		t := r.t
		t.Helper()
		cfg := name + "-mock.json"
		write(t, r.w.home, cfg, mockProviderConfig(&Mock{URL: m.URL + prefix}))
		up := strings.ToUpper(name)
		env := append(append([]string(nil), r.env...), up+"_CONFIG="+filepath.Join(r.w.home, cfg), up+"_DISABLE_MODELS_FETCH=1",
			up+"_DISABLE_AUTOUPDATE=1", up+"_DISABLE_DEFAULT_PLUGINS=1", up+"_DISABLE_LSP_DOWNLOAD=1", up+"_DISABLE_SHARE=1",
			"KILO_DISABLE_SESSION_INGEST=1", "KILO_DISABLE_CODEBASE_INDEXING=1")
		out, _ := run(t, r.w.project, env, bin(t, name), append([]string{"run"}, append(flags, "hi")...)...)
		return out
	}
}

// TestOpenCodeServerList and TestKiloServerList: opencode.json / kilo.json
// holds only the allowed server, and the agent lists only its tools, as
// SERVER_TOOL.
func TestOpenCodeServerList(t *testing.T) { openCodeServers(t, "opencode", "opencode.json") }
func TestKiloServerList(t *testing.T)     { openCodeServers(t, "kilo", "kilo.json") }

func openCodeServers(t *testing.T, name, file string) {
	r := serversRig(t, name)
	data, err := os.ReadFile(filepath.Join(r.w.project, file))
	if err != nil || !strings.Contains(string(data), `"`+allowedServer+`"`) || strings.Contains(string(data), blockedServer) {
		t.Fatalf("%s: %v\n%s", file, err, data)
	}
	m, out := r.run("")
	t.Logf("%s run:\n%s", name, out)
	serverTools(t, firstAgentTurn(t, m), charterTools(t, r.w, r.env), func(server, tool string) string { return server + "_" + tool })
}

// TestOpenCodePolicyDeny and TestKiloPolicyDeny: at project and at user
// level the deny is permission.bash["git push --force *"] = "deny", the
// last entry. Every run has --auto (approve whatever is not denied), as a
// script would: the refusal is charter's deny, not a question nobody
// answered; the control run, charter applied without the deny, lets git
// run under the same flag.
func TestOpenCodePolicyDeny(t *testing.T) {
	openCodeDeny(t, "opencode", "opencode.json", ".config/opencode")
}
func TestKiloPolicyDeny(t *testing.T) { openCodeDeny(t, "kilo", "kilo.json", ".config/kilo") }

func openCodeDeny(t *testing.T, name, file, userDir string) {
	for _, level := range []string{"project", "user", "control"} {
		t.Run(level, func(t *testing.T) {
			policy, at, path := pushPolicy, level, ""
			if level == "control" {
				policy, at = "", "project"
			}
			r := policyRig(t, name, policy)
			r.apply(at)
			path = filepath.Join(r.w.project, file)
			if at == "user" {
				path = filepath.Join(r.w.home, filepath.FromSlash(userDir), file)
			}
			if data, err := os.ReadFile(path); level != "control" && (err != nil || !strings.Contains(string(data), `"git push --force *": "deny"`)) {
				t.Fatalf("%s does not deny git push --force: %v\n%s", path, err, data)
			}
			m, out := r.run(chatShellPrefix+"bash", "--auto")
			res := chatToolResult(t, m)
			t.Logf("%s's tool result: %s", name, strings.TrimSpace(res))
			switch {
			case level == "control" && !gitRan(res):
				t.Errorf("without charter's deny %s did not run git, so the refusals prove nothing:\n%s\n%s", name, res, out)
			case level != "control" && (gitRan(res) || !strings.Contains(res, "rule")):
				t.Errorf("the next request carries no refusal of %q:\n%s\n%s", forcePush, res, out)
			}
		})
	}
}
