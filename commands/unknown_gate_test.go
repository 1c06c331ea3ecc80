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

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/gates"
)

// Every skin refuses an unknown gate with gates.ParseList's error, in the
// same body: `charter gate run --gate nope --json`, POST /api/v1/gates/run
// with {"gates":["nope"]} and MCP's gates_run with ["nope"]. All three run
// in this process, through the commands that start them.
func TestUnknownGateSameInEverySkin(t *testing.T) {
	_, perr := gates.ParseList([]string{"nope"})
	if perr == nil {
		t.Fatal("nope is a gate")
	}
	wantDoc, err := json.Marshal(core.NewErrorBody(perr, perr.Error()).Document())
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal(wantDoc, &want); err != nil {
		t.Fatal(err)
	}
	body := want["error"].(map[string]any)
	if body["code"] != core.CodeInvalidValue {
		t.Fatalf("ParseList's code %v, want %s", body["code"], core.CodeInvalidValue)
	}
	root := filepath.Join(t.TempDir(), "root")
	var out, errOut bytes.Buffer
	base := testApp(t, &out, &errOut)
	app := func(stdin io.Reader, stdout io.Writer) *App {
		a := testApp(t, new(bytes.Buffer), new(bytes.Buffer))
		a.Sys, a.Stdin, a.Stdout = base.Sys, stdin, stdout
		return a
	}

	// The CLI (Main sets JSON from the arguments; run does not).
	base.JSON = true
	if code := base.run(context.Background(), []string{"gate", "run", "--config-root", root, "--gate", "nope", "--json"}); code != ExitUsage {
		t.Errorf("gate run --gate nope: exit %d, want %d", code, ExitUsage)
	}
	var cli map[string]any
	if err := json.Unmarshal(out.Bytes(), &cli); err != nil {
		t.Fatalf("gate run --json: %v\n%s", err, out.Bytes())
	}
	if !reflect.DeepEqual(cli, want) {
		t.Errorf("the CLI's error\n got: %v\nwant: %v", cli, want)
	}

	// The HTTP API, from `charter serve`.
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
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:"+strconv.Itoa(disc.Port)+"/api/v1/gates/run", strings.NewReader(`{"gates":["nope"]}`))
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var api map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&api); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusUnprocessableEntity || !reflect.DeepEqual(api, want) {
		t.Errorf("the HTTP API's error: %s\n got: %v\nwant: %v", resp.Status, api, want)
	}

	// MCP, from `charter mcp` over its stdin and stdout.
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	mcpDone := make(chan ExitCode, 1)
	go func() {
		mcpDone <- app(inR, outW).run(context.Background(), []string{"mcp", "--config-root", root})
		outW.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "gates_run", Arguments: map[string]any{"gates": []string{"nope"}}})
	if err != nil {
		t.Fatal(err)
	}
	var tool map[string]any
	if !res.IsError || json.Unmarshal([]byte(coretest.ToolText(res)), &tool) != nil || !reflect.DeepEqual(tool, want) {
		t.Errorf("MCP's error: %s\nwant: %v", coretest.ToolText(res), want)
	}
	cs.Close()
	inW.Close()
	if code := <-mcpDone; code != ExitOK {
		t.Errorf("mcp: exit %d", code)
	}
}
