package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/coretest"
)

// skins runs one config root's requests through the three skins, all in
// this process over one System: the CLI (run), the HTTP API (`charter
// serve`) and MCP (`charter mcp` over pipes).
type skins struct {
	t    *testing.T
	root string
	base *App
	port int
	tok  string
	cs   *mcp.ClientSession
}

func newSkins(t *testing.T, root string, opts ...coretest.Option) *skins {
	s := &skins{t: t, root: root, base: testApp(t, new(bytes.Buffer), new(bytes.Buffer))}
	if len(opts) > 0 {
		s.base.Sys = coretest.New(t, opts...).Sys
	}
	app := func(stdin io.Reader, stdout io.Writer) *App {
		a := testApp(t, new(bytes.Buffer), new(bytes.Buffer))
		a.Sys, a.Stdin, a.Stdout = s.base.Sys, stdin, stdout
		return a
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan ExitCode, 1)
	go func() {
		done <- app(strings.NewReader(""), io.Discard).run(ctx, []string{"serve", "--config-root", root})
	}()
	t.Cleanup(func() { stop(); <-done })
	var disc struct{ Port int }
	for {
		if data, err := os.ReadFile(filepath.Join(root, "local-server.json")); err == nil && json.Unmarshal(data, &disc) == nil {
			break
		}
		select {
		case code := <-done:
			t.Fatalf("serve ended with %d", code)
		case <-time.After(20 * time.Millisecond):
		}
	}
	tok, err := os.ReadFile(filepath.Join(root, "local-server.token"))
	if err != nil {
		t.Fatal(err)
	}
	s.port, s.tok = disc.Port, strings.TrimSpace(string(tok))

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	mcpDone := make(chan ExitCode, 1)
	go func() {
		mcpDone <- app(inR, outW).run(context.Background(), []string{"mcp", "--config-root", root})
		outW.Close()
	}()
	s.cs, err = mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.cs.Close(); inW.Close(); <-mcpDone })
	return s
}

// cli runs the command line with --json and returns its one document.
func (s *skins) cli(args ...string) map[string]any {
	s.t.Helper()
	var out bytes.Buffer
	a := testApp(s.t, &out, new(bytes.Buffer))
	a.Sys, a.JSON = s.base.Sys, true
	a.run(context.Background(), append(append(args, "--config-root", s.root), "--json"))
	return decodeDoc(s.t, "CLI", out.Bytes())
}

func (s *skins) http(method, path, body string) (int, map[string]any) {
	s.t.Helper()
	req, _ := http.NewRequest(method, "http://127.0.0.1:"+strconv.Itoa(s.port)+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.tok)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, decodeDoc(s.t, "HTTP", data)
}

func (s *skins) mcp(tool string, args any) map[string]any {
	s.t.Helper()
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		s.t.Fatal(err)
	}
	return decodeDoc(s.t, "MCP", []byte(coretest.ToolText(res)))
}

func decodeDoc(t *testing.T, skin string, data []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: not one JSON document: %v\n%s", skin, err, data)
	}
	return doc
}

func sameDoc(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		w, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("%s differs:\n got: %s\nwant: %s", what, g, w)
	}
}

// The same gate run through the three skins gives one report; only each
// gate's elapsed time differs.
func TestGateRunSameInEverySkin(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	coretest.WriteFile(t, filepath.Join(root, "settings.yaml"), "gates:\n  tests:\n    command: echo tests ran\n  lint:\n    command: echo lint failed; exit 3\n")
	s := newSkins(t, root)
	norm := func(doc map[string]any) map[string]any {
		for _, g := range doc["gates"].([]any) {
			g.(map[string]any)["elapsedMs"] = 0
		}
		return doc
	}
	cli := norm(s.cli("gate", "run"))
	status, web := s.http("POST", "/api/v1/gates/run", "")
	if status != 200 {
		t.Fatalf("HTTP %d: %v", status, web)
	}
	mcpDoc := norm(s.mcp("gates_run", map[string]any{}))
	if cli["ok"] != false || len(cli["gates"].([]any)) != 2 {
		t.Fatalf("the run is not the one set up (tests pass, lint fails): %v", cli)
	}
	sameDoc(t, "the HTTP API's report", norm(web), cli)
	sameDoc(t, "MCP's report", mcpDoc, cli)
}

// Apply's status (`apply --check --json`, GET /api/v1/apply, MCP status's
// apply) and its write (`apply --json`, POST /api/v1/apply) are one
// document in every skin. MCP writes nothing, so it has the status alone,
// without the diffs.
func TestApplySameInEverySkin(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	coretest.WriteFile(t, filepath.Join(root, "settings.yaml"), "gates:\n  tests:\n    required: false\n")
	coretest.WriteFile(t, filepath.Join(root, "rules", "tidy.md"), "---\ndescription: Keep it tidy\n---\nTidy up.\n")
	s := newSkins(t, root)
	agentDir := filepath.Join(s.base.Sys.Getenv("HOME"), ".claude")
	if err := os.MkdirAll(agentDir, 0o755); err != nil {
		t.Fatal(err)
	}

	cli := s.cli("apply", "--check")
	status, web := s.http("GET", "/api/v1/apply", "")
	if status != 200 {
		t.Fatalf("HTTP %d: %v", status, web)
	}
	sameDoc(t, "GET /api/v1/apply", web, cli)
	files := cli["files"].([]any)
	if len(files) == 0 || files[0].(map[string]any)["state"] != "missing" {
		t.Fatalf("the rule is not planned: %v", cli)
	}
	st := s.mcp("status", map[string]any{})["apply"].(map[string]any)
	for _, r := range cli["targets"].([]any) {
		delete(r.(map[string]any), "diff") // the state is the status; --dry-run shows the diff
	}
	sameDoc(t, "MCP status's targets", st["targets"], cli["targets"])
	sameDoc(t, "MCP status's files", st["files"], cli["files"])
	sameDoc(t, "MCP status's budget", st["budget"], cli["budget"])

	// The write, from the same files: the CLI's, then (the files put back
	// as they were) the HTTP API's.
	wrote := s.cli("apply")
	if err := os.RemoveAll(agentDir); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(agentDir, 0o755)
	os.Remove(filepath.Join(root, "state", "projection.json"))
	status, web = s.http("POST", "/api/v1/apply", "{}")
	if status != 200 {
		t.Fatalf("HTTP %d: %v", status, web)
	}
	sameDoc(t, "POST /api/v1/apply", web, wrote)
	if f := wrote["files"].([]any); f[0].(map[string]any)["state"] != "written" {
		t.Errorf("the rule was not written: %v", wrote)
	}
}
