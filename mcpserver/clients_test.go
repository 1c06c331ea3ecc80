package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/session"
	"github.com/agentkit/charter/core/settings"
)

// watchdog bounds a wait that only a bug makes long: it is no timing
// assertion, it turns a hang into a failure.
const watchdog = 2 * time.Minute

func watched(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), watchdog)
	t.Cleanup(cancel)
	return ctx
}

// TestToolsMeetMCPSchema lists the tools, holds every schema to what MCP's
// Tool schema asks (the TypeScript SDK rejects the whole list otherwise),
// calls every tool (settings_get and settings_explain on every key), and
// validates each structured result against the tool's output schema.
func TestToolsMeetMCPSchema(t *testing.T) {
	for _, proto := range protocols {
		t.Run(protoName(proto), func(t *testing.T) {
			e := newEnv(t)
			for _, f := range [][2]string{
				{"rules/sample.md", "---\ndescription: A rule\nglobs: [\"**/*.go\"]\n---\nBody.\n"},
				{"skills/sample/SKILL.md", "---\nname: sample\ndescription: A skill\n---\nBody.\n"},
				{"commands/sample.md", "---\ndescription: A command\nargument-hint: X\n---\nDo $ARGUMENTS.\n"},
				{"subagents/sample.md", "---\nname: sample\ndescription: A subagent\ntools: [Read]\nmodel: small\n---\nBody.\n"},
				{"settings.yaml", "permissions:\n  deny: [\"shell:git push --force\"]\n  allow: [\"web:pkg.go.dev\"]\nmcp:\n  servers:\n    notes: {command: notes-mcp, args: [--stdio], env: {NOTES_TOKEN: \"${NOTES_TOKEN}\"}}\n    hub: {url: \"https://mcp.example.com/\"}\ngates:\n  tests:\n    command: echo ok\n  lint:\n    required: false\n"}, // a gate that passes
			} {
				e.write(t, filepath.Join(e.scope.Path, f[0]), f[1])
			}
			// A project with a command to trust, so trust has values.
			e.write(t, filepath.Join(e.wd, ".charter", "settings.yaml"), "gates:\n  lint:\n    command: go vet ./...\n")
			cs := connect(t, e.server(), newClient(noRoots), proto)
			list, err := cs.ListTools(watched(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			schemas := map[string]*jsonschema.Resolved{}
			for _, tool := range list.Tools {
				for what, sch := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
					var doc map[string]any
					data, _ := json.Marshal(sch)
					if json.Unmarshal(data, &doc) != nil || doc["type"] != "object" {
						t.Errorf("%s %s schema is not an object schema: %s", tool.Name, what, data)
						continue
					}
					if err := propertiesOK("", doc); err != nil {
						t.Errorf("%s %s schema: %v", tool.Name, what, err)
					}
				}
				var out jsonschema.Schema
				data, _ := json.Marshal(tool.OutputSchema)
				if err := json.Unmarshal(data, &out); err != nil {
					t.Fatal(err)
				}
				r, err := out.Resolve(nil)
				if err != nil {
					t.Fatalf("%s output schema: %v", tool.Name, err)
				}
				schemas[tool.Name] = r
			}
			check := func(name string, args any) {
				t.Helper()
				res := call(t, cs, name, args)
				if res.IsError {
					t.Fatalf("%s %v: %s", name, args, coretest.ToolText(res))
				}
				data, _ := json.Marshal(res.StructuredContent)
				var v any
				_ = json.Unmarshal(data, &v)
				if err := schemas[name].Validate(v); err != nil {
					t.Errorf("%s %v: result %s does not match the output schema: %v", name, args, data, err)
				}
			}
			for _, k := range settings.Keys() {
				check("settings_get", map[string]any{"key": k.Name})
				check("settings_explain", map[string]any{"key": k.Name})
			}
			check("status", map[string]any{})
			check("gates_run", map[string]any{})
			for _, kind := range []string{"rule", "skill", "command", "subagent"} {
				check(kind+"s_list", map[string]any{})
				check(kind+"_get", map[string]any{"name": "sample"})
			}
			check("rules_list", map[string]any{"path": "main.go"})
			check("sources_list", map[string]any{})
			check("permissions_list", map[string]any{})
			check("permissions_check", map[string]any{"action": "shell:git push --force", "agent": "claude"})
			check("permissions_check", map[string]any{"action": "read:.env"})
			check("mcp_servers_list", map[string]any{})
			check("ping", map[string]any{})
			check("trust", map[string]any{})
			if len(schemas) != 18 {
				t.Errorf("tools listed: %d, want the 18 this test calls", len(schemas))
			}
		})
	}
}

// rootsClient announces roots (with listChanged) and answers roots/list
// with answer; asked counts the requests.
func rootsClient(asked *atomic.Int32, answer func(ctx context.Context) (mcp.Result, error)) *mcp.Client {
	c := newClient(nil)
	c.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "roots/list" {
				return next(ctx, method, req)
			}
			asked.Add(1)
			return answer(ctx)
		}
	})
	return c
}

// TestRootsFailure: a client that announces roots and then answers the
// request with an error, or never answers it, still gets every answer, in
// charter's working directory, and status says why.
func TestRootsFailure(t *testing.T) {
	for name, answer := range map[string]func(ctx context.Context) (mcp.Result, error){
		"error": func(ctx context.Context) (mcp.Result, error) { return nil, errors.New("method not found") },
		"silent": func(ctx context.Context) (mcp.Result, error) {
			<-ctx.Done() // charter gives up and cancels
			return nil, ctx.Err()
		},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			var asked atomic.Int32
			c := rootsClient(&asked, answer)
			cs := connect(t, e.server(), c, "2025-06-18")
			ctx := watched(t)
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "status", Arguments: map[string]any{}})
			if err != nil {
				t.Fatalf("status: %v", err)
			}
			var st session.StatusDoc
			structured(t, res, &st)
			if st.WorkDir != e.wd || st.WorkDirNote == "" {
				t.Errorf("workDir %q (note %q), want %q and a note", st.WorkDir, st.WorkDirNote, e.wd)
			}
			if res := call(t, cs, "settings_get", map[string]any{"key": "rules.tier"}); res.IsError {
				t.Errorf("settings_get: %s", coretest.ToolText(res))
			}
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: URISettings}); err != nil {
				t.Errorf("read %s: %v", URISettings, err)
			}
			// Asked once per connection, not once per call.
			if n := asked.Load(); n != 1 {
				t.Errorf("roots/list asked %d times, want 1", n)
			}
		})
	}
}

// TestRootsCachedUntilChanged: roots are asked once per connection, and
// again after notifications/roots/list_changed.
func TestRootsCachedUntilChanged(t *testing.T) {
	e := newEnv(t)
	var asked atomic.Int32
	c := newClient(nil)
	c.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "roots/list" {
				asked.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	dir := t.TempDir()
	c.AddRoots(&mcp.Root{URI: fileURI(dir)})
	cs := connect(t, e.server(), c, "2025-06-18")
	for range 3 {
		if got := workDirOf(t, cs); got != dir {
			t.Fatalf("workDir %q, want %q", got, dir)
		}
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("roots/list asked %d times for 3 calls, want 1", n)
	}
	other := t.TempDir()
	c.AddRoots(&mcp.Root{URI: fileURI(other)}) // sends list_changed
	c.RemoveRoots(fileURI(dir))
	if got := workDirOf(t, cs); got != other {
		t.Errorf("after list_changed: workDir %q, want %q", got, other)
	}
	if n := asked.Load(); n != 2 {
		t.Errorf("roots/list asked %d times, want 2", n)
	}
}
