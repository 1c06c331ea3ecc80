package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core"
)

// Errors say the operating system's part in words, as the CLI does: the
// message is Options.Message's, in tool errors and resource errors alike.
func TestErrorsInUserWords(t *testing.T) {
	e := newEnv(t)
	agentkit := filepath.Join(e.home, ".agentkit")
	e.write(t, agentkit, "a file where charter's directory goes\n")
	cs := connect(t, e.server(), newClient(noRoots), "")
	want := agentkit + " is a file, not a directory: move it away, or choose another path"

	body := toolErr(t, call(t, cs, "settings_get", KeyInput{Key: "rules.tier"}))
	if msg, _ := body["message"].(string); body["code"] != core.CodeInternal || !strings.HasSuffix(msg, want) {
		t.Errorf("tool error %v, want a message ending %q", body, want)
	}
	_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: URISettings})
	var re *jsonrpc.Error
	var data map[string]any
	if !errors.As(err, &re) || json.Unmarshal(re.Data, &data) != nil || !strings.HasSuffix(re.Message, want) || data["message"] != re.Message {
		t.Errorf("resource error %v, want a message ending %q", err, want)
	}
}

// A malformed policy file is a tool error with its code, naming the file
// and line; nothing falls back to the settings without it.
func TestToolErrorMalformedPolicy(t *testing.T) {
	policy := filepath.Join(t.TempDir(), "policy.yaml")
	e := newEnv(t, "AGENTKIT_POLICY_FILE="+policy)
	e.write(t, policy, "lock:\n  rules.tier: [\n")
	cs := connect(t, e.server(), newClient(noRoots), "")
	for name, args := range map[string]any{"settings_get": KeyInput{Key: "rules.tier"}, "settings_explain": KeyInput{Key: "rules.tier"}, "status": nil} {
		body := toolErr(t, call(t, cs, name, args))
		if msg, _ := body["message"].(string); body["code"] != core.CodeMalformedPolicy || !strings.Contains(msg, policy+":2:") || body["policy"] != policy {
			t.Errorf("%s with a malformed policy: %v", name, body)
		}
	}
}

// Broken markers in an agent file leave status worth having: the targets
// are empty and apply.error is the CLI's body.
func TestStatusBrokenMarkers(t *testing.T) {
	e := newEnv(t)
	claude := filepath.Join(e.home, ".claude", "CLAUDE.md")
	e.write(t, claude, "# mine\n<!-- charter:begin -->\nno end\n")
	st, err := e.backend().Status(context.Background(), e.wd)
	if err != nil {
		t.Fatal(err)
	}
	if st.Apply.Error == nil || st.Apply.Error.Code != core.CodeMalformedMarkers || !strings.Contains(st.Apply.Error.Message, claude) || len(st.Apply.Targets) != 0 {
		t.Errorf("apply %+v", st.Apply)
	}
}
