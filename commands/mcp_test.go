package commands

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
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

// fileState is what a write would change about a file.
type fileState struct {
	mode  fs.FileMode
	size  int64
	mtime int64
	sum   [32]byte
}

// snapshot records every file and directory under dir.
func snapshot(t testing.TB, dir string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(path)
		if err != nil {
			return err
		}
		st := fileState{mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime().UnixNano()}
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			st.sum = sha256.Sum256(data)
		}
		out[path] = st
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// No tool and no resource writes: run them all against a read-only config
// root and project, and nothing under the home, root or project changes.
func testMCPWritesNothing(t *testing.T, bin string) {
	w := newWorld(t)
	coretest.WriteFile(t, filepath.Join(w.home, ".claude", "CLAUDE.md"), "# mine\n")
	for _, d := range []string{w.root, w.project} {
		if err := os.Chmod(d, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(d, 0o700) })
	}
	before := snapshot(t, w.dir)

	for _, roots := range [][]string{{w.project}, nil} {
		p := startMCP(t, bin, w.project, w.env(), roots, "--config-root", w.root, "mcp")
		for _, uri := range []string{mcpserver.URISettings, mcpserver.URIGovernance, mcpserver.URISchema} {
			p.read(t, uri)
		}
		fields(t, p.call(t, "settings_get", map[string]any{"key": "rules.tier"}))
		fields(t, p.call(t, "settings_explain", map[string]any{"key": "gates.on_failure"}))
		fields(t, p.call(t, "status", nil))
		p.call(t, "gates_run", nil)
		p.call(t, "settings_get", map[string]any{"key": "no.such"})
		if code := p.close(t); code != 0 {
			t.Errorf("exit code %d; stderr: %s", code, p.stderr)
		}
	}

	after := snapshot(t, w.dir)
	for path, st := range after {
		if b, ok := before[path]; !ok {
			t.Errorf("created %s", path)
		} else if b != st {
			t.Errorf("changed %s: %+v became %+v", path, b, st)
		}
	}
	for path := range before {
		if _, ok := after[path]; !ok {
			t.Errorf("removed %s", path)
		}
	}
}

// cliJSON runs `bin args...` in dir with only environ and decodes the one
// JSON document it prints.
func cliJSON(t testing.TB, bin, dir string, environ []string, args ...string) map[string]any {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, environ
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%v: %v", args, err)
	}
	var doc map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("%v: stdout is not one JSON document: %v\n%s\nstderr: %s", args, err, stdout.Bytes(), stderr.Bytes())
	}
	return doc
}

// writeProject gives dir a .charter/settings.yaml holding yaml.
func writeProject(t testing.TB, dir, yaml string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ".charter"), 0o700); err != nil {
		t.Fatal(err)
	}
	coretest.WriteFile(t, filepath.Join(dir, ".charter", "settings.yaml"), yaml)
}

// trustProject runs `charter trust` for dir: a project's own gate
// commands run only once trusted (SPEC §13).
func trustProject(t testing.TB, bin string, w world, dir string) {
	t.Helper()
	cmd := exec.Command(bin, "--config-root", w.root, "--project-dir", dir, "trust")
	cmd.Env = w.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("charter trust: %v\n%s", err, out)
	}
}

// ranIn reports the directory a `pwd > where.txt` gate ran in: the one
// whose where.txt names itself, of dirs; "" when none has one.
func ranIn(t testing.TB, dirs ...string) string {
	t.Helper()
	found := ""
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, "where.txt"))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err1 := filepath.EvalSymlinks(strings.TrimSpace(string(data)))
		want, err2 := filepath.EvalSymlinks(d)
		if err1 != nil || err2 != nil || got != want {
			t.Fatalf("%s/where.txt names %q", d, data)
		}
		if found != "" {
			t.Fatalf("the gate ran in both %s and %s", found, d)
		}
		found = d
	}
	return found
}

// gates_run runs in the project the rest of `charter mcp` uses: the one
// --project-dir names, not the one found from the client's directory, and
// none under --no-project.
func testMCPGateDirectory(t *testing.T, bin string) {
	const gate = "gates:\n  tests:\n    command: pwd > where.txt\n"
	t.Run("ProjectDir", func(t *testing.T) {
		w := newWorld(t)
		pa, pb := filepath.Join(w.dir, "pa"), filepath.Join(w.dir, "pb")
		writeProject(t, pa, gate)
		trustProject(t, bin, w, pa)
		writeProject(t, pb, "rules:\n  tier: minimal\n") // a project of its own, without gates
		for _, roots := range [][]string{nil, {pb}} {
			for _, d := range []string{pa, pb} {
				os.Remove(filepath.Join(d, "where.txt"))
			}
			p := startMCP(t, bin, pb, w.env(), roots, "--config-root", w.root, "--project-dir", pa, "mcp")
			params := &mcp.CallToolParams{Name: "gates_run", Arguments: map[string]any{}}
			params.SetProgressToken("where")
			res, err := p.cs.CallTool(context.Background(), params)
			if err != nil {
				t.Fatal(err)
			}
			rep := fields(t, res)
			if rep["ok"] != true || rep["gates"].([]any)[0].(map[string]any)["status"] != "passed" {
				t.Errorf("roots %v: gates_run: %v", roots, rep)
			}
			if got := ranIn(t, pa, pb); got != pa {
				t.Errorf("roots %v: the gate ran in %q, want the --project-dir %s", roots, got, pa)
			}
			// Progress counts two steps a gate: its start and its end; a
			// skipped gate (lint has no command) both at once.
			want := []string{"1/4 tests: running pwd > where.txt", "2/4 tests: passed", "4/4 lint: skipped"}
			for i, line := range want {
				n := <-p.progress
				if got := fmt.Sprintf("%g/%g %s", n.Progress, n.Total, n.Message); n.ProgressToken != "where" || got != line {
					t.Errorf("roots %v: progress %d: %q, want %q", roots, i, got, line)
				}
			}
			if code := p.close(t); code != 0 {
				t.Errorf("exit code %d; stderr: %s", code, p.stderr)
			}
		}
	})
	t.Run("NoProject", func(t *testing.T) {
		w := newWorld(t)
		coretest.WriteFile(t, filepath.Join(w.root, "settings.yaml"), gate)
		writeProject(t, w.project, "rules:\n  tier: minimal\n")
		sub := filepath.Join(w.project, "sub")
		if err := os.Mkdir(sub, 0o700); err != nil {
			t.Fatal(err)
		}
		p := startMCP(t, bin, sub, w.env(), nil, "--config-root", w.root, "--no-project", "mcp")
		if rep := fields(t, p.call(t, "gates_run", nil)); rep["ok"] != true {
			t.Errorf("gates_run: %v", rep)
		}
		if got := ranIn(t, w.project, sub); got != sub {
			t.Errorf("the gate ran in %q, want the working directory %s: --no-project has no project root", got, sub)
		}
		if code := p.close(t); code != 0 {
			t.Errorf("exit code %d; stderr: %s", code, p.stderr)
		}
	})
}

// gates_run's result is the document of `charter gate run --json`, field
// for field (outputTail a list of lines, message always there), but for
// the time each gate took.
func testMCPGateReportAsCLI(t *testing.T, bin string) {
	w := newWorld(t)
	writeProject(t, w.project, "gates:\n  tests:\n    command: echo one; echo two >&2; exit 3\n")
	trustProject(t, bin, w, w.project)
	cli := cliJSON(t, bin, w.project, w.env(), "--config-root", w.root, "gate", "run", "--json")
	p := startMCP(t, bin, w.project, w.env(), nil, "--config-root", w.root, "mcp")
	res := p.call(t, "gates_run", nil)
	got := fields(t, res)
	var text map[string]any
	if err := json.Unmarshal([]byte(coretest.ToolText(res)), &text); err != nil {
		t.Fatalf("text content: %v", err)
	}
	for _, doc := range []map[string]any{cli, got, text} {
		for _, g := range doc["gates"].([]any) {
			g.(map[string]any)["elapsedMs"] = 0.0
		}
	}
	if !reflect.DeepEqual(got, cli) || !reflect.DeepEqual(text, cli) {
		t.Errorf("gates_run\n structured: %v\n text:       %v\n`charter gate run --json`:\n            %v", got, text, cli)
	}
	if tail := cli["gates"].([]any)[0].(map[string]any)["outputTail"]; !reflect.DeepEqual(tail, []any{"one", "two"}) {
		t.Errorf("outputTail %#v, want the lines one, two", tail)
	}
	if code := p.close(t); code != 0 {
		t.Errorf("exit code %d; stderr: %s", code, p.stderr)
	}
}

// A tool that fails says what `charter … --json` says of the same fault:
// the same error body, code, message (the operating system's part in
// words) and extras. A resource read carries the same body.
func testMCPErrorsAsCLI(t *testing.T, bin string) {
	for _, c := range []struct {
		name  string
		setup func(w world) []string // the fault; returns extra variables
		code  string
		words string // in the message
	}{
		{"AgentkitIsAFile", func(w world) []string {
			coretest.WriteFile(t, filepath.Join(w.home, ".agentkit"), "not a directory\n")
			return nil
		}, "internal", ".agentkit is a file, not a directory: move it away"},
		{"MalformedPolicy", func(w world) []string {
			policy := filepath.Join(w.dir, "policy.yaml")
			coretest.WriteFile(t, policy, "locked: [\n")
			return []string{"AGENTKIT_POLICY_FILE=" + policy}
		}, "malformed_policy", "policy.yaml:1:"},
		{"MalformedSettings", func(w world) []string {
			if err := os.MkdirAll(filepath.Join(w.home, ".agentkit", "charter"), 0o700); err != nil {
				t.Fatal(err)
			}
			coretest.WriteFile(t, filepath.Join(w.home, ".agentkit", "charter", "settings.yaml"), "rules:\n  tier: [\n")
			return nil
		}, "malformed_settings", "settings.yaml:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			env := w.env(c.setup(w)...)
			// No --config-root: the default root under the home.
			cli, ok := cliJSON(t, bin, w.project, env, "settings", "get", "rules.tier", "--json")["error"].(map[string]any)
			if !ok || cli["code"] != c.code || !strings.Contains(cli["message"].(string), c.words) {
				t.Fatalf("the CLI's error: %v, want %s saying %q", cli, c.code, c.words)
			}
			p := startMCP(t, bin, w.project, env, nil, "mcp")
			res := p.call(t, "settings_get", map[string]any{"key": "rules.tier"})
			var doc struct {
				Error map[string]any `json:"error"`
			}
			if !res.IsError || json.Unmarshal([]byte(coretest.ToolText(res)), &doc) != nil {
				t.Fatalf("want a tool error, got %s", coretest.ToolText(res))
			}
			if !reflect.DeepEqual(doc.Error, cli) {
				t.Errorf("tool error\n got: %v\nwant: %v (the CLI's)", doc.Error, cli)
			}
			_, err := p.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: mcpserver.URISettings})
			var re *jsonrpc.Error
			var data map[string]any
			if !errors.As(err, &re) || json.Unmarshal(re.Data, &data) != nil || re.Message != cli["message"] || !reflect.DeepEqual(data, cli) {
				t.Errorf("resource error %v, want the CLI's body %v", err, cli)
			}
			if code := p.close(t); code != 0 {
				t.Errorf("exit code %d; stderr: %s", code, p.stderr)
			}
		})
	}
}
