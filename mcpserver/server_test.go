package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/session"
	"github.com/agentkit/charter/core/settings"
)

// protocols are the two ways a client talks: the initialize handshake of
// today's agents, and the stateless protocol the SDK's client prefers.
var protocols = []string{"2025-06-18", ""}

func protoName(v string) string {
	if v == "" {
		return "latest"
	}
	return v
}

// env is a home with charter's default root and a working directory, on
// the real file system.
type env struct {
	home, wd string
	sys      *core.System
	scope    core.Scope
}

func newEnv(t testing.TB, vars ...string) *env {
	t.Helper()
	wd := t.TempDir()
	m := coretest.New(t, coretest.Env(vars...), coretest.Wd(wd))
	e := &env{home: m.Home, wd: wd, sys: m.Sys}
	var err error
	if e.scope, err = profile.ResolveScope(e.sys, nil); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e *env) settingsFile() string { return filepath.Join(e.scope.Path, settings.FileName) }

func (e *env) write(t testing.TB, path, data string) {
	t.Helper()
	coretest.WriteFile(t, path, data)
}

func (e *env) backend() *Local {
	return &Local{Sys: e.sys, Scope: e.scope, Version: "1.2.3-test"}
}

func (e *env) server() *Server {
	return New(e.backend(), Options{Version: "1.2.3-test", Getwd: e.sys.Getwd, Paths: e.sys.Paths, Message: e.sys.ErrorMessage})
}

// connect runs srv in-process and returns a client session speaking proto.
func connect(t testing.TB, srv *Server, c *mcp.Client, proto string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: proto})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func newClient(opts *mcp.ClientOptions) *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, opts)
}

// noRoots is a client that announces no roots capability at all.
var noRoots = &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}

func call(t testing.TB, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	checkOutput(t, cs, name, res)
	return res
}

// structured decodes a successful result's structured content into v.
func structured(t testing.TB, res *mcp.CallToolResult, v any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", coretest.ToolText(res))
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
}

// toolErr decodes a tool error's {"error":{…}} document.
func toolErr(t testing.TB, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want a tool error, got %s", coretest.ToolText(res))
	}
	var doc struct {
		Error map[string]any `json:"error"`
	}
	if err := json.Unmarshal([]byte(coretest.ToolText(res)), &doc); err != nil || doc.Error == nil {
		t.Fatalf("tool error is not the CLI's error document: %q (%v)", coretest.ToolText(res), err)
	}
	return doc.Error
}

func readResource(t testing.TB, cs *mcp.ClientSession, uri string) *mcp.ResourceContents {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	if len(res.Contents) != 1 || res.Contents[0].URI != uri {
		t.Fatalf("read %s: contents %+v", uri, res.Contents)
	}
	if res.CacheScope != "private" || res.TTLMs != 0 {
		t.Errorf("read %s: cache %+v, want private and never fresh", uri, res.Cacheable)
	}
	return res.Contents[0]
}

func jsonText(t testing.TB, v any) string {
	t.Helper()
	s, err := encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestToolsAndResources(t *testing.T) {
	for _, proto := range protocols {
		t.Run(protoName(proto), func(t *testing.T) {
			e := newEnv(t)
			e.write(t, e.settingsFile(), "rules:\n  tier: full\ngates:\n  coverage:\n    min: 80.50\n")
			// One rule of the scope's: the block speaks of rules only while some are active.
			e.write(t, filepath.Join(e.scope.Path, "rules", "tests-first.md"), "---\ndescription: Write the test first.\ntier: full\n---\nWrite the failing test first.\n")
			cs := connect(t, e.server(), newClient(noRoots), proto)
			ctx := context.Background()

			if got := cs.InitializeResult().Instructions; !strings.Contains(got, "read-only") {
				t.Errorf("instructions do not say the server is read-only: %q", got)
			}
			var tools []string
			for tool, err := range cs.Tools(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				tools = append(tools, tool.Name)
				if tool.InputSchema == nil || tool.OutputSchema == nil {
					t.Errorf("%s has no input or output schema", tool.Name)
				}
			}
			slices.Sort(tools)
			if want := []string{"command_get", "commands_list", "gates_run", "mcp_servers_list", "permissions_check", "permissions_list", "ping", "rule_get", "rules_list", "settings_explain", "settings_get", "skill_get", "skills_list", "sources_list", "status", "subagent_get", "subagents_list", "trust"}; !slices.Equal(tools, want) {
				t.Errorf("tools %v, want %v", tools, want)
			}
			var uris []string
			for r, err := range cs.Resources(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				uris = append(uris, r.URI)
			}
			slices.Sort(uris)
			if want := []string{URIGovernance, URISchema, URISettings}; !slices.Equal(uris, want) {
				t.Errorf("resources %v, want %v", uris, want)
			}

			// Each resource is what the CLI would print for the same files.
			snap, err := settings.New(e.sys, e.scope).Read()
			if err != nil {
				t.Fatal(err)
			}
			if got, want := readResource(t, cs, URISettings).Text, jsonText(t, settings.New(e.sys, e.scope).Doc(snap)); got != want {
				t.Errorf("charter://settings:\n%s\nwant the document of settings list --json:\n%s", got, want)
			}
			gov := readResource(t, cs, URIGovernance)
			if want := string(apply.Render(snap, apply.Library{Rules: 1})); gov.Text != want || gov.MIMEType != "text/markdown" {
				t.Errorf("charter://governance (%s):\n%s\nwant what apply writes:\n%s", gov.MIMEType, gov.Text, want)
			}
			if !strings.Contains(gov.Text, "**full**") || !strings.Contains(gov.Text, "1 charter rule is active (`charter rules list` shows them).") {
				t.Errorf("governance does not reflect rules.tier=full:\n%s", gov.Text)
			}
			var schema map[string]any
			if err := json.Unmarshal([]byte(readResource(t, cs, URISchema).Text), &schema); err != nil || schema["title"] != "charter settings" {
				t.Errorf("charter://schema is not the settings schema: %v %v", schema["title"], err)
			}

			var kd session.KeyDoc
			structured(t, call(t, cs, "settings_get", KeyInput{Key: "rules.tier"}), &kd)
			if kd.Key != "rules.tier" || kd.Value != "full" || kd.Origin != e.settingsFile() {
				t.Errorf("settings_get rules.tier = %+v", kd)
			}
			// A decimal travels as a number from its canonical text.
			res := call(t, cs, "settings_get", KeyInput{Key: "gates.coverage.min"})
			if !strings.Contains(coretest.ToolText(res), `"value":80.5`) {
				t.Errorf("settings_get gates.coverage.min: %s", coretest.ToolText(res))
			}

			var ex map[string]any
			structured(t, call(t, cs, "settings_explain", KeyInput{Key: "rules.tier"}), &ex)
			want := map[string]any{
				"key": "rules.tier", "type": "enum", "allowed": []any{"minimal", "balanced", "full"},
				"default": "balanced", "value": "full", "origin": e.settingsFile(), "layer": "scope", "locked": false,
				"minimum": nil, "maximum": nil,
			}
			for k, v := range want {
				if gotJSON, wantJSON := jsonText(t, ex[k]), jsonText(t, v); gotJSON != wantJSON {
					t.Errorf("settings_explain rules.tier: %s = %s, want %s", k, gotJSON, wantJSON)
				}
			}
			structured(t, call(t, cs, "settings_explain", KeyInput{Key: "gates.coverage.min"}), &ex)
			if ex["minimum"] != 0.0 || ex["maximum"] != 100.0 || ex["layer"] != "scope" || ex["allowed"] != nil {
				t.Errorf("settings_explain gates.coverage.min: %v", ex)
			}
			structured(t, call(t, cs, "settings_explain", KeyInput{Key: "skills.autoload"}), &ex)
			if ex["layer"] != "default" || ex["origin"] != "default" {
				t.Errorf("settings_explain skills.autoload: %v", ex)
			}

			var st session.StatusDoc
			structured(t, call(t, cs, "status", StatusInput{}), &st)
			if st.WorkDir != e.wd || st.Scope.Path != e.scope.Path || st.ConfigRoot != e.scope.Root || st.Project != nil || st.Policy != nil {
				t.Errorf("status: %+v", st)
			}
			if st.Apply.Error == nil || st.Apply.Error.Code != "no_agent" {
				t.Errorf("status without an agent directory: apply %+v", st.Apply)
			}
		})
	}
}

func TestStatusApply(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(filepath.Join(e.home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, e.server(), newClient(noRoots), "")
	var st session.StatusDoc
	structured(t, call(t, cs, "status", nil), &st)
	want := []apply.Result{{Agent: "claude", Level: apply.LevelUser, Path: filepath.Join(e.home, ".claude", "CLAUDE.md"), State: apply.StateOutdated, Missing: true},
		{Agent: "claude", Level: apply.LevelUser, Path: filepath.Join(e.home, ".claude", apply.HookFile), State: apply.StateOutdated, Missing: true}}
	if st.Apply.Error != nil || !reflect.DeepEqual(st.Apply.Targets, want) {
		t.Errorf("apply status %+v, want %+v", st.Apply, want)
	}
}

// A profile under the default root reads the root's file below its own:
// explain names the layer each value comes from.
func TestExplainLayers(t *testing.T) {
	e := newEnv(t, "CLAUDE_CONFIG_DIR="+filepath.Join("$HOME", ".agent-switch", "claude", "work", "config"))
	sc, err := profile.ResolveScope(e.sys, nil)
	if err != nil || sc.Kind != core.ScopeProfile {
		t.Fatalf("scope %+v, %v", sc, err)
	}
	e.scope = sc
	e.write(t, filepath.Join(sc.Root.Path, settings.FileName), "rules:\n  tier: minimal\nskills:\n  autoload: false\n")
	e.write(t, e.settingsFile(), "rules:\n  tier: full\n")
	b := e.backend()
	for key, layer := range map[string]string{"rules.tier": "scope", "skills.autoload": "global", "memory.cadence": "default"} {
		ex, err := b.Explain(context.Background(), e.wd, key)
		if err != nil {
			t.Fatal(err)
		}
		if ex.Layer != layer {
			t.Errorf("%s: layer %q (origin %s), want %q", key, ex.Layer, ex.Origin, layer)
		}
	}
}

func TestToolErrors(t *testing.T) {
	for _, proto := range protocols {
		t.Run(protoName(proto), func(t *testing.T) {
			e := newEnv(t)
			cs := connect(t, e.server(), newClient(noRoots), proto)

			body := toolErr(t, call(t, cs, "settings_get", KeyInput{Key: "rules.teir"}))
			if body["code"] != "unknown_key" || !strings.Contains(body["message"].(string), `did you mean "rules.tier"`) || body["problems"] == nil {
				t.Errorf("unknown key: %v", body)
			}
			if body := toolErr(t, call(t, cs, "settings_explain", map[string]any{})); body["code"] != "usage" {
				t.Errorf("missing key: %v", body)
			}
			if body := toolErr(t, call(t, cs, "settings_get", map[string]any{"key": 3})); body["code"] != "usage" {
				t.Errorf("key of the wrong type: %v", body)
			}

			// A malformed settings file is reported by every reader, never hidden.
			e.write(t, e.settingsFile(), "rules:\n  tier: [\n")
			for name, args := range map[string]any{"settings_get": KeyInput{Key: "rules.tier"}, "settings_explain": KeyInput{Key: "rules.tier"}, "status": nil} {
				body := toolErr(t, call(t, cs, name, args))
				if body["code"] != "malformed_settings" || !strings.Contains(body["message"].(string), e.settingsFile()+":") {
					t.Errorf("%s with a malformed file: %v", name, body)
				}
			}
			for _, uri := range []string{URISettings, URIGovernance} {
				_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
				var we *jsonrpc.Error
				if !errors.As(err, &we) {
					t.Fatalf("read %s with a malformed file: %v, want a JSON-RPC error", uri, err)
				}
				var data map[string]any
				if json.Unmarshal(we.Data, &data) != nil || data["code"] != "malformed_settings" || !strings.Contains(we.Message, e.settingsFile()) {
					t.Errorf("read %s: %v (data %s)", uri, we, we.Data)
				}
			}
			// The schema does not depend on the file.
			readResource(t, cs, URISchema)
		})
	}
}
