package agenttest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SPEC §14's proof in Cline and Continue (both speak Chat Completions to
// the mock). Both read servers at user level only: Cline from
// ~/.cline/data/settings/cline_mcp_settings.json, Continue's cn from
// ~/.continue/config.yaml (the user's own, with their model). Continue
// holds a shell deny in ~/.continue/permissions.yaml; Cline has no file
// for one (charter reports it unsupported).

func init() {
	routes[chatShellPrefix+"Bash/v1/chat/completions"] = serveChatToolCall("Bash")
	rigs["cline"] = agentRig{bin: "cline", run: runClineAt}
	rigs["continue"] = agentRig{bin: "cn", run: runContinueAt}
}

// runClineAt points Cline at m under prefix (`cline auth`, its
// OpenAI-compatible provider) and runs `cline --json "say hi"`; it fails
// unless the run ends with the mock's reply.
func runClineAt(r *rig, m *Mock, prefix string, flags ...string) string {
	t := r.t
	t.Helper()
	env := append(append([]string(nil), r.env...), "CLINE_SESSION_BACKEND_MODE=local", "CLINE_NO_AUTO_UPDATE=1")
	c := bin(t, "cline")
	if out, err := run(t, r.w.project, env, c, "auth", "-p", "openai", "-k", "dummy", "-m", "m", "-b", m.URL+prefix+"/v1"); err != nil {
		t.Fatalf("cline auth: %v\n%s", err, out)
	}
	out, err := run(t, r.w.project, env, c, append(append([]string{}, flags...), "--json", "say hi")...)
	if err != nil || !strings.Contains(out, chatReply) {
		t.Fatalf("cline --json: %v\n%s\nrequests: %s", err, out, requestLines(m))
	}
	return out
}

// continueMockURL stands for the mock's base URL in a config.yaml written
// before the mock runs; the run fills it in.
const continueMockURL = "http://mock.invalid/v1"

// continueModel is a Continue config's model entry for base URL.
func continueModel(base string) string {
	return "models:\n  - name: m\n    provider: openai\n    model: m\n    apiBase: " + base + "\n    apiKey: dummy\n    roles: [chat]\n"
}

// runContinueAt runs `cn -p "say hi"` against m under prefix: with the
// user's ~/.continue/config.yaml when there is one (its continueMockURL
// filled in), else with --config naming a file whose only model is the
// mock. The run may end either way: the requests are the proof.
func runContinueAt(r *rig, m *Mock, prefix string, flags ...string) string {
	t := r.t
	t.Helper()
	args := append([]string{"-p", "say hi"}, flags...)
	user := filepath.Join(r.w.home, ".continue", "config.yaml")
	if data, err := os.ReadFile(user); err == nil {
		write(t, r.w.home, ".continue/config.yaml", strings.ReplaceAll(string(data), continueMockURL, m.URL+prefix+"/v1"))
	} else {
		write(t, r.w.home, "continue-mock.yaml", "name: mock\nversion: 1.0.0\nschema: v1\n"+continueModel(m.URL+prefix+"/v1"))
		args = append(args, "--config", filepath.Join(r.w.home, "continue-mock.yaml"))
	}
	out, _ := run(t, r.w.project, r.env, bin(t, "cn"), args...)
	return out
}

// TestClineServerList: Cline's user-level MCP settings hold only the
// allowed server, and its tools reach the model, the other's do not.
func TestClineServerList(t *testing.T) {
	r := userServersRig(t, "cline")
	file := filepath.Join(r.w.home, ".cline", "data", "settings", "cline_mcp_settings.json")
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), `"`+allowedServer+`"`) || strings.Contains(string(data), blockedServer) {
		t.Fatalf("%s: %v\n%s", file, err, data)
	}
	m, _ := r.run("")
	serverTools(t, firstChatTurn(t, m), charterTools(t, r.w, r.env), clineTool)
}

// clineTool is a server's tool as Cline names it.
func clineTool(server, tool string) string { return server + "__" + tool }

// TestContinueServerList: charter adds the allowed server to the user's
// own ~/.continue/config.yaml (their model and comment kept) and not the
// other; cn names MCP tools by their own name, so each of charter's tools
// reaching the model once (twice if both servers ran) is the proof.
func TestContinueServerList(t *testing.T) {
	mine := "name: mine # my assistant\nversion: 1.0.0\nschema: v1\n" + continueModel(continueMockURL)
	r := userServersRig(t, "continue", func(w world) { write(t, w.home, ".continue/config.yaml", mine) })
	file := filepath.Join(r.w.home, ".continue", "config.yaml")
	data, err := os.ReadFile(file)
	if err != nil || !strings.HasPrefix(string(data), mine) || !strings.Contains(string(data), `"name": "`+allowedServer+`"`) || strings.Contains(string(data), blockedServer) {
		t.Fatalf("%s does not hold the user's config and the allowed server alone: %v\n%s", file, err, data)
	}
	m, out := r.run("")
	if !strings.Contains(out, chatReply) {
		t.Fatalf("cn -p: %s\nrequests: %s", out, requestLines(m))
	}
	names := strings.Join(chatToolNames(t, m), "\n")
	toolsOnce(t, names, charterTools(t, r.w, r.env), func(tool string) string { return tool })
}

// TestContinuePolicyDenyRefuses: the mock asks cn's Bash tool for
// forcePush. With charter's exclude in ~/.continue/permissions.yaml cn
// refuses the call and, in a headless run, ends the turn there: no next
// request, so the proof is the tool result cn keeps in its session file
// (~/.continue/sessions/ID.json), "Command blocked by security policy",
// and no git output anywhere. cn -p allows Bash by default, so the control
// run (no deny) runs git and sends its output back to the model.
func TestContinuePolicyDenyRefuses(t *testing.T) {
	t.Run("user", func(t *testing.T) {
		r := policyRig(t, "continue", pushPolicy)
		r.apply("user")
		m, out := r.run(chatShellPrefix + "Bash")
		session := continueSession(t, r)
		if !strings.Contains(session, "Command blocked by security policy") || gitRan(session) || gitRan(m.Sent()) {
			t.Errorf("cn did not refuse %q (output %q):\n%s", forcePush, out, session)
		}
		if n := len(chatTurns(m)); n != 1 {
			t.Errorf("cn sent %d requests, want the one that asked for the call (it stops at a refusal)", n)
		}
	})
	t.Run("control-without-deny", func(t *testing.T) {
		r := policyRig(t, "continue", "")
		r.apply("user")
		m, _ := r.run(chatShellPrefix + "Bash")
		if res := chatToolResult(t, m); !gitRan(res) {
			t.Errorf("without charter's deny cn did not run git, so the refusal above proves nothing:\n%s", res)
		}
	})
}

// continueSession is cn's session file of the run in r's home.
func continueSession(t *testing.T, r *rig) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(r.w.home, ".continue", "sessions", "*-*.json"))
	if len(files) != 1 {
		t.Fatalf("cn's sessions folder holds %d session files, want 1: %v", len(files), files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestClineDenyUnsupported: Cline reads no command permissions from a
// file, so charter reports the policy's deny unsupported for it (and
// doctor fails for it), naming why.
func TestClineDenyUnsupported(t *testing.T) {
	r := policyRig(t, "cline", pushPolicy)
	out := r.charter("apply", "--agent", "cline")
	if !strings.Contains(out, "unsupported  -  deny shell:git push --force (Cline CLI reads no command permissions from a file") {
		t.Errorf("apply does not report the deny unsupported for Cline:\n%s", out)
	}
}

// chatToolNames are the function names of the first request's tools.
func chatToolNames(t *testing.T, m *Mock) []string {
	t.Helper()
	turns := chatTurns(m)
	if len(turns) == 0 {
		t.Fatalf("no Chat Completions request reached the mock; requests: %s", requestLines(m))
	}
	var q struct {
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(turns[0].Body, &q); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range q.Tools {
		out = append(out, tl.Function.Name)
	}
	return out
}
