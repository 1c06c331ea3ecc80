package mcpserver

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/fsys"
)

// The MCP server only reads, by type: New hands its Local a System whose
// every write fails, and every tool and resource answers with it.
func TestToolsRunOnAReadOnlySystem(t *testing.T) {
	e := newEnv(t)
	e.write(t, e.settingsFile(), "rules:\n  tier: full\n")
	e.write(t, filepath.Join(e.wd, ".charter", "settings.yaml"), "gates:\n  tests:\n    command: go test ./...\n") // a project to trust
	e.write(t, filepath.Join(e.scope.Path, "rules", "style.md"), "---\ndescription: Style\n---\nKeep it short.\n")
	l := e.backend()
	srv := New(l, Options{Version: "1.2.3-test", Getwd: e.sys.Getwd, Paths: e.sys.Paths, Message: e.sys.ErrorMessage})
	if _, ok := l.Sys.Fs.(*fsys.ReadOnlyFs); !ok {
		t.Fatalf("the MCP backend's file system is %T, want *fsys.ReadOnlyFs", l.Sys.Fs)
	}
	var nw *fsys.NoWriteError
	if err := l.Sys.WriteAtomic(e.settingsFile(), []byte("x")); !errors.As(err, &nw) {
		t.Fatalf("a write through the MCP backend's system: %v, want it refused", err)
	}

	cs := connect(t, srv, newClient(noRoots), "")
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]map[string]any{
		"settings_get": {"key": "rules.tier"}, "settings_explain": {"key": "rules.tier"}, "rule_get": {"name": "style"},
	}
	called := 0
	for _, tool := range tools.Tools {
		if _, ok := args[tool.Name]; !ok && tool.InputSchema != nil && len(requiredOf(tool)) > 0 {
			continue // an item of another kind: none exists
		}
		called++
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool.Name, Arguments: args[tool.Name]})
		if err != nil || res.IsError {
			t.Errorf("%s on a read-only system: %v %+v", tool.Name, err, res)
		}
	}
	if called < 8 {
		t.Errorf("called %d of %d tools: the list of arguments is out of date", called, len(tools.Tools))
	}
	for _, uri := range []string{URISettings, URIGovernance, URISchema} {
		if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri}); err != nil {
			t.Errorf("%s on a read-only system: %v", uri, err)
		}
	}
	if _, err := e.sys.Fs.Stat(filepath.Join(e.home, ".agentkit", "charter", "locks")); !fsys.IsAbsent(err) {
		t.Errorf("the MCP server made lock files (%v)", err)
	}
}

// requiredOf lists a tool's required arguments.
func requiredOf(tool *mcp.Tool) []string {
	m, ok := tool.InputSchema.(map[string]any)
	if !ok {
		return nil
	}
	req, _ := m["required"].([]any)
	out := make([]string, len(req))
	for i, r := range req {
		out[i], _ = r.(string)
	}
	return out
}
