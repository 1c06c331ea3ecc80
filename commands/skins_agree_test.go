package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/project"
	"github.com/agentkit/charter/server"
)

// The same request through the CLI, the HTTP API and MCP gives the same
// document: each skin renders one session method's answer. Only the
// transports' envelopes are taken off (MCP's structured content and its
// paging, HTTP's body); the documents are compared whole.
func TestSkinsAgree(t *testing.T) {
	d := t.TempDir()
	proj := filepath.Join(d, "proj")
	coretest.WriteFile(t, filepath.Join(proj, ".charter", "settings.yaml"), "rules:\n  tier: full\ngates:\n  tests:\n    command: go test ./...\n")
	coretest.WriteFile(t, filepath.Join(proj, ".charter", "rules", "go.md"), "---\ndescription: Go\nglobs: [\"**/*.go\"]\n---\ngofmt.\n")
	coretest.WriteFile(t, filepath.Join(proj, ".charter", "rules", "docs.md"), "---\ndescription: Docs\nglobs: [\"docs/**\"]\n---\nShort.\n")
	// The CLI and MCP work in a subfolder: a path is the project root's.
	coretest.WriteFile(t, filepath.Join(proj, "docs", "guide.md"), "# Guide\n")
	m := coretest.New(t, coretest.Home(filepath.Join(d, "home")), coretest.Wd(filepath.Join(proj, "docs")))
	coretest.WriteFile(t, filepath.Join(m.Home, ".agentkit", "charter", "rules", "tone.md"), "---\ndescription: Tone\n---\nBe kind.\n")
	sys := m.Sys

	cli := func(args ...string) any {
		t.Helper()
		var out, errb bytes.Buffer
		a := testApp(t, &out, &errb)
		a.Sys, a.JSON = sys, true
		if code := a.run(context.Background(), append(args, "--json")); code != ExitOK {
			t.Fatalf("charter %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
		return decoded(t, out.Bytes())
	}

	sc, err := profile.ResolveScope(sys, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := project.At(sys, proj, core.SourceDiscovered)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.Open(server.Config{Sys: sys, Scope: sc, Project: p, ProjectRoot: proj, Version: "1.2.3-test"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx) }()
	defer func() { cancel(); <-served }()
	call := func(method, path string) any {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL()+path, nil)
		req.Header.Set("Authorization", "Bearer "+srv.Token())
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, body)
		}
		return decoded(t, body)
	}
	api := func(path string) any { t.Helper(); return call(http.MethodGet, path) }

	cs, stop := inProcessMCP(t, func(in io.Reader, out io.Writer) *App {
		a := testApp(t, new(bytes.Buffer), new(bytes.Buffer))
		a.Sys, a.Stdin, a.Stdout = sys, in, out
		return a
	})
	defer stop()
	tool := func(name string, args map[string]any) any {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %s", name, err, coretest.ToolText(res))
		}
		data, _ := json.Marshal(res.StructuredContent)
		doc := decoded(t, data)
		if m, ok := doc.(map[string]any); ok && strings.HasSuffix(name, "_list") {
			delete(m, "total") // MCP's paging envelope (one page here)
			if _, more := m["nextCursor"]; more {
				t.Fatalf("%s: more than one page", name)
			}
			// A page names each set of receivers once; spelled out per
			// item it is the CLI's receivedBy.
			sets, _ := m["receiverSets"].(map[string]any)
			items, _ := m["items"].([]any)
			for _, it := range items {
				item := it.(map[string]any)
				set, ok := sets[item["receiverSet"].(string)]
				if !ok {
					t.Fatalf("%s: item %v names no set of %v", name, item["name"], sets)
				}
				item["receivedBy"] = set
				delete(item, "receiverSet")
				// A page leaves out what the tool's name says, and a rule's
				// default tier.
				item["kind"] = strings.TrimSuffix(name, "s_list")
				if _, ok := item["tier"]; !ok && name == "rules_list" {
					item["tier"] = "balanced"
				}
			}
			delete(m, "receiverSets")
		}
		return doc
	}

	for _, c := range []struct {
		what          string
		cli, http     any
		mcp           any
		mustHold, not string
	}{
		{"ping", cli("ping"), api("api/v1/ping"), tool("ping", nil), `"state":"untrusted"`, ""},
		{"trust", cli("trust", "--show"), api("api/v1/trust"), tool("trust", nil), `"key":"gates.tests.command"`, ""},
		{"content list", cli("rules", "list"), api("api/v1/content/rules"), tool("rules_list", nil), `"name":"docs"`, ""},
		{"content list for a file", cli("rules", "list", "--path", "cmd/main.go"), api("api/v1/content/rules?path=cmd%2Fmain.go"),
			tool("rules_list", map[string]any{"path": "cmd/main.go"}), `"name":"go"`, `"name":"docs"`},
	} {
		if !reflect.DeepEqual(c.cli, c.http) || !reflect.DeepEqual(c.cli, c.mcp) {
			t.Errorf("%s: the skins disagree\ncli:  %s\nhttp: %s\nmcp:  %s", c.what, encoded(c.cli), encoded(c.http), encoded(c.mcp))
		}
		if got := encoded(c.cli); !strings.Contains(got, c.mustHold) || (c.not != "" && strings.Contains(got, c.not)) {
			t.Errorf("%s: %s, want %s and not %q", c.what, got, c.mustHold, c.not)
		}
	}

	// After a trust through the CLI every skin says trusted.
	cli("trust")
	for what, doc := range map[string]any{"cli": cli("ping"), "http": api("api/v1/ping"), "mcp": tool("ping", nil)} {
		if !strings.Contains(encoded(doc), `"trust":{"state":"trusted"}`) {
			t.Errorf("%s ping after trust: %s", what, encoded(doc))
		}
	}

	// A revoke is one trust document too: the CLI's and DELETE's agree.
	revoked := cli("trust", "--revoke")
	if !strings.Contains(encoded(revoked), `"revoked":true`) {
		t.Errorf("the CLI's revoke: %s", encoded(revoked))
	}
	cli("trust")
	sameDoc(t, "DELETE /api/v1/trust", call(http.MethodDelete, "api/v1/trust"), revoked)
}

func decoded(t testing.TB, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
	return v
}

func encoded(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
