package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/mcpserver"
)

// buildCharter builds the real binary, as an agent would start it.
func buildCharter(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the charter binary")
	}
	bin := filepath.Join(t.TempDir(), "charter")
	out, err := exec.Command("go", "build", "-ldflags", "-X main.version=9.9.9-e2e",
		"-o", bin, "github.com/agentkit/charter/cmd/charter").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// mcpProcess is a running `charter mcp` and the SDK client talking to it
// over its stdin and stdout.
type mcpProcess struct {
	cmd    *exec.Cmd
	cs     *mcp.ClientSession
	stderr *bytes.Buffer
	conn   *tapConn // the client's side of the stdio connection
	// progress receives the progress notifications the server sends (the
	// ones that find it full are dropped).
	progress chan *mcp.ProgressNotificationParams
}

// tapTransport hands the client a tapConn over the transport's connection.
type tapTransport struct {
	mcp.Transport
	conn *tapConn
}

func (t *tapTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.conn = &tapConn{Connection: c}
	return t.conn, nil
}

// tapConn passes every message through and remembers the id of each call
// the client writes, so that a test can send raw notifications about a
// call (notifications/cancelled) that the SDK's client would only send
// itself when the caller's context ends.
type tapConn struct {
	mcp.Connection
	mu    sync.Mutex
	calls map[string][]jsonrpc.ID // method → ids, in the order written
}

func (c *tapConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Request); ok && r.IsCall() {
		c.mu.Lock()
		if c.calls == nil {
			c.calls = map[string][]jsonrpc.ID{}
		}
		c.calls[r.Method] = append(c.calls[r.Method], r.ID)
		c.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

// lastCall is the id of the latest call of method written.
func (c *tapConn) lastCall(t testing.TB, method string) jsonrpc.ID {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	ids := c.calls[method]
	if len(ids) == 0 {
		t.Fatalf("no %s call was written", method)
	}
	return ids[len(ids)-1]
}

// notify writes a notification to the server as it is given, on the
// session's own connection.
func (p *mcpProcess) notify(t testing.TB, method string, params any) {
	t.Helper()
	raw, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.conn.Write(context.Background(), &jsonrpc.Request{Method: method, Params: raw}); err != nil {
		t.Fatalf("notify %s: %v", method, err)
	}
}

// startMCP starts `bin args...` in dir with only the variables in environ,
// and connects a client announcing roots (none: no roots capability).
func startMCP(t testing.TB, bin, dir string, environ []string, roots []string, args ...string) *mcpProcess {
	t.Helper()
	p := &mcpProcess{cmd: exec.Command(bin, args...), stderr: &bytes.Buffer{},
		progress: make(chan *mcp.ProgressNotificationParams, 64)}
	p.cmd.Dir, p.cmd.Env, p.cmd.Stderr = dir, environ, p.stderr
	opts := &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		select {
		case p.progress <- req.Params:
		default:
		}
	}}
	if roots == nil {
		opts.Capabilities = &mcp.ClientCapabilities{}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, opts)
	for _, r := range roots {
		c.AddRoots(&mcp.Root{URI: (&url.URL{Scheme: "file", Path: r}).String()})
	}
	tr := &tapTransport{Transport: &mcp.CommandTransport{Command: p.cmd}}
	cs, err := c.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatalf("connect to charter mcp: %v\nstderr: %s", err, p.stderr)
	}
	p.cs, p.conn = cs, tr.conn
	t.Cleanup(func() { cs.Close() })
	return p
}

// close ends the session by closing the server's input, as clients do, and
// returns the exit code.
func (p *mcpProcess) close(t testing.TB) int {
	t.Helper()
	err := p.cs.Close()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("close: %v", err)
	}
	return p.cmd.ProcessState.ExitCode()
}

func (p *mcpProcess) call(t testing.TB, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := p.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v\nstderr: %s", name, err, p.stderr)
	}
	return res
}

func (p *mcpProcess) read(t testing.TB, uri string) string {
	t.Helper()
	res, err := p.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("read %s: %v %+v", uri, err, res)
	}
	return res.Contents[0].Text
}

// fields decodes a result's structured content, or fails on a tool error.
func fields(t testing.TB, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", coretest.ToolText(res))
	}
	m, ok := res.StructuredContent.(map[string]any)
	if !ok {
		t.Fatalf("structured content %T: %v", res.StructuredContent, res.StructuredContent)
	}
	return m
}

// errorOf decodes a tool error: the CLI's {"error":{"code","message"}}.
func errorOf(t testing.TB, res *mcp.CallToolResult) (code, msg string) {
	t.Helper()
	var doc struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if !res.IsError || json.Unmarshal([]byte(coretest.ToolText(res)), &doc) != nil {
		t.Fatalf("want a tool error with the CLI's error document, got %s", coretest.ToolText(res))
	}
	return doc.Error.Code, doc.Error.Message
}

// world is a home, a config root and a project, under one directory.
type world struct {
	dir, home, root, project string
}

func newWorld(t testing.TB) world {
	t.Helper()
	d := t.TempDir()
	w := world{dir: d, home: filepath.Join(d, "home"), root: filepath.Join(d, "root"), project: filepath.Join(d, "project")}
	for _, p := range []string{w.home, w.root, w.project, filepath.Join(w.home, ".claude")} {
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	coretest.WriteFile(t, filepath.Join(w.root, "settings.yaml"), "rules:\n  tier: full # chosen for this host\n")
	// A rule of the host scope: the block speaks of the tier only while a rule is active.
	coretest.WriteFile(t, filepath.Join(w.root, "rules", "plain-words.md"), "---\ndescription: Say it plainly.\n---\nSay it plainly.\n")
	coretest.WriteFile(t, filepath.Join(w.project, "README.md"), "a project\n")
	return w
}

// env is the world's environment; its policy file is absent until a test
// writes it.
func (w world) env(extra ...string) []string {
	return append([]string{"HOME=" + w.home, "PATH=" + os.Getenv("PATH"), coretest.PolicyVar + "=" + filepath.Join(w.dir, "policy.yaml")}, extra...)
}

// TestMCPBinary talks to the real binary through the SDK's client over its
// stdin and stdout. One build serves every subtest.
func TestMCPBinary(t *testing.T) {
	bin := buildCharter(t)
	t.Run("EndToEnd", func(t *testing.T) { testMCPEndToEnd(t, bin) })
	t.Run("Environment", func(t *testing.T) { testMCPEnvironment(t, bin) })
	t.Run("WritesNothing", func(t *testing.T) { testMCPWritesNothing(t, bin) })
	t.Run("GateDirectory", func(t *testing.T) { testMCPGateDirectory(t, bin) })
	t.Run("GateReportAsCLI", func(t *testing.T) { testMCPGateReportAsCLI(t, bin) })
	t.Run("ErrorsAsCLI", func(t *testing.T) { testMCPErrorsAsCLI(t, bin) })
}

func testMCPEndToEnd(t *testing.T, bin string) {
	w := newWorld(t)
	settingsFile := filepath.Join(w.root, "settings.yaml")
	// The global flag before the command, as the registration writes it.
	p := startMCP(t, bin, w.home, w.env(), []string{w.project}, "--config-root", w.root, "mcp")

	init := p.cs.InitializeResult()
	if init.ServerInfo.Name != "charter" || init.ServerInfo.Version != "9.9.9-e2e" || !strings.Contains(init.Instructions, "read-only") {
		t.Errorf("initialize: %+v, instructions %q", init.ServerInfo, init.Instructions)
	}
	tools, err := p.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := []string{"command_get", "commands_list", "gates_run", "mcp_servers_list", "permissions_check", "permissions_list", "ping", "rule_get", "rules_list", "settings_explain", "settings_get", "skill_get", "skills_list", "sources_list", "status", "subagent_get", "subagents_list", "trust"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
	resources, err := p.cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range resources.Resources {
		uris = append(uris, r.URI)
	}
	slices.Sort(uris)
	if want := []string{mcpserver.URIGovernance, mcpserver.URISchema, mcpserver.URISettings}; !slices.Equal(uris, want) {
		t.Errorf("resources %v, want %v", uris, want)
	}

	// Resources: the same documents as the CLI's.
	var doc struct {
		Scope   struct{ Kind, Path string }
		Values  map[string]json.RawMessage // a section's map, or a top-level key's value (sources)
		Origins map[string]string
	}
	if err := json.Unmarshal([]byte(p.read(t, mcpserver.URISettings)), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Scope.Kind != "host" || doc.Scope.Path != w.root || !strings.Contains(string(doc.Values["rules"]), `"tier": "full"`) || doc.Origins["rules.tier"] != settingsFile {
		t.Errorf("charter://settings: %+v", doc)
	}
	if gov := p.read(t, mcpserver.URIGovernance); !strings.Contains(gov, "<!-- charter:begin") || !strings.Contains(gov, "**full**") || !strings.Contains(gov, "1 charter rule is active") {
		t.Errorf("charter://governance:\n%s", gov)
	}
	if schema := p.read(t, mcpserver.URISchema); !strings.Contains(schema, `"x-key": "rules.tier"`) {
		t.Errorf("charter://schema:\n%s", schema)
	}

	// Tools.
	if got := fields(t, p.call(t, "settings_get", map[string]any{"key": "rules.tier"})); got["value"] != "full" || got["origin"] != settingsFile {
		t.Errorf("settings_get: %v", got)
	}
	if got := fields(t, p.call(t, "settings_explain", map[string]any{"key": "worktrees.mode"})); got["default"] != "ask" || got["layer"] != "default" || got["locked"] != false || len(got["allowed"].([]any)) != 3 {
		t.Errorf("settings_explain: %v", got)
	}
	st := fields(t, p.call(t, "status", nil))
	if st["workDir"] != w.project || st["scope"].(map[string]any)["kind"] != "host" || st["configRoot"].(map[string]any)["source"] != "flag" || st["version"] != "9.9.9-e2e" {
		t.Errorf("status: %v", st)
	}
	if targets := st["apply"].(map[string]any)["targets"].([]any); len(targets) != 2 || targets[0].(map[string]any)["state"] != "outdated" {
		t.Errorf("status apply: %v", st["apply"])
	}
	// No gate command is configured: the required gates are listed as skipped.
	if got := fields(t, p.call(t, "gates_run", nil)); got["ok"] != true || len(got["gates"].([]any)) != 2 ||
		got["gates"].([]any)[0].(map[string]any)["status"] != "skipped" {
		t.Errorf("gates_run: %v", got)
	}
	code, msg := errorOf(t, p.call(t, "settings_get", map[string]any{"key": "rules.teir"}))
	if code != "unknown_key" || !strings.Contains(msg, `did you mean "rules.tier"`) {
		t.Errorf("unknown key: %s %s", code, msg)
	}

	// A malformed settings file is a tool error naming file and line, and
	// is left as it is.
	bad := "rules:\n  tier: [\n"
	coretest.WriteFile(t, settingsFile, bad)
	code, msg = errorOf(t, p.call(t, "settings_get", map[string]any{"key": "rules.tier"}))
	if code != "malformed_settings" || !strings.Contains(msg, settingsFile+":") {
		t.Errorf("malformed settings: %s %s", code, msg)
	}
	if data, _ := os.ReadFile(settingsFile); string(data) != bad {
		t.Errorf("the malformed file changed: %q", data)
	}

	// Closing its input ends the server with exit 0.
	if code := p.close(t); code != 0 {
		t.Errorf("exit code %d after the input closed; stderr: %s", code, p.stderr)
	}
}

// charter mcp honours AGENTKIT_CONFIG_HOME and, without roots, the working
// directory.
func testMCPEnvironment(t *testing.T, bin string) {
	w := newWorld(t)
	p := startMCP(t, bin, w.project, w.env("AGENTKIT_CONFIG_HOME="+w.root), nil, "mcp")
	st := fields(t, p.call(t, "status", nil))
	if st["workDir"] != w.project || st["configRoot"].(map[string]any)["source"] != "env" || st["configRoot"].(map[string]any)["path"] != w.root {
		t.Errorf("status: %v", st)
	}
	if got := fields(t, p.call(t, "settings_get", map[string]any{"key": "rules.tier"})); got["value"] != "full" {
		t.Errorf("settings_get under AGENTKIT_CONFIG_HOME: %v", got)
	}
	if code := p.close(t); code != 0 {
		t.Errorf("exit code %d; stderr: %s", code, p.stderr)
	}
}
