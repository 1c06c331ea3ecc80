//go:build unix

package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
)

// mcpPathArgs are the MCP tools' arguments that name a file, each of
// which must be confined to the project as the CLI confines it. A new
// one fails TestMCPPathArgsConfinedAsCLI until it is listed and tested.
var mcpPathArgs = map[string][]string{"rules_list": {"path"}}

// A path argument of an MCP tool is refused exactly where the CLI refuses
// the same path (`rules list --path`), with the same code: one spelled out
// of the project with "..", an absolute one outside, and one through a
// link in the project that leads out. Both run in this process.
func TestMCPPathArgsConfinedAsCLI(t *testing.T) {
	d := t.TempDir()
	proj, secret := filepath.Join(d, "proj"), filepath.Join(d, "home", ".ssh")
	coretest.WriteFile(t, filepath.Join(proj, ".charter", "settings.yaml"), "rules:\n  tier: full\n")
	coretest.WriteFile(t, filepath.Join(proj, ".charter", "rules", "go.md"), "---\ndescription: Go\nglobs: [\"**/*.go\"]\n---\ngofmt.\n")
	coretest.WriteFile(t, filepath.Join(proj, ".charter", "rules", "always.md"), "---\ndescription: Everywhere\n---\nBe kind.\n")
	coretest.WriteFile(t, filepath.Join(secret, "id_rsa"), "key\n")
	if err := os.Symlink(secret, filepath.Join(proj, "out")); err != nil {
		t.Fatal(err)
	}
	sys := coretest.New(t, coretest.Home(filepath.Join(d, "home")), coretest.Wd(proj)).Sys
	app := func(stdin io.Reader, stdout io.Writer) *App {
		a := testApp(t, new(bytes.Buffer), new(bytes.Buffer))
		a.Sys, a.Stdin, a.Stdout = sys, stdin, stdout
		return a
	}
	cs, stop := inProcessMCP(t, app)
	defer stop()

	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		schema, _ := json.Marshal(tool.InputSchema)
		var in struct {
			Properties map[string]any `json:"properties"`
		}
		json.Unmarshal(schema, &in)
		for name := range in.Properties {
			pathy := strings.Contains(name, "path") || strings.Contains(name, "file") || strings.Contains(name, "dir")
			if pathy && !slices.Contains(mcpPathArgs[tool.Name], name) {
				t.Errorf("%s takes %q, a path this test does not hold to the CLI's confinement: add it to mcpPathArgs and to the cases", tool.Name, name)
			}
		}
	}

	for _, c := range []struct{ name, path string }{
		{"dotdot", "../../home/.ssh/id_rsa"},
		{"absolute", filepath.Join(secret, "id_rsa")},
		{"link", "out/id_rsa"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			a := app(strings.NewReader(""), &out)
			a.JSON = true
			a.run(context.Background(), []string{"rules", "list", "--path", c.path, "--json"})
			var cli struct {
				Error map[string]any `json:"error"`
			}
			if err := json.Unmarshal(out.Bytes(), &cli); err != nil || cli.Error["code"] != core.CodeOutsideProject {
				t.Fatalf("the CLI: %s (%v), want %s", out.Bytes(), err, core.CodeOutsideProject)
			}
			for tool, args := range mcpPathArgs {
				for _, arg := range args {
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{arg: c.path}})
					if err != nil {
						t.Fatal(err)
					}
					var doc struct {
						Error map[string]any `json:"error"`
					}
					if !res.IsError || json.Unmarshal([]byte(coretest.ToolText(res)), &doc) != nil || doc.Error["code"] != cli.Error["code"] {
						t.Errorf("%s %s=%q: %s, want the CLI's code %v", tool, arg, c.path, coretest.ToolText(res), cli.Error["code"])
					}
				}
			}
		})
	}
	// Inside, both answer: the path is the project's own.
	var res *mcp.CallToolResult
	if res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "rules_list", Arguments: map[string]any{"path": "src/main.go"}}); err != nil || res.IsError {
		t.Fatalf("inside: %v %s", err, coretest.ToolText(res))
	}
	if text := coretest.ToolText(res); !strings.Contains(text, `"go"`) || !strings.Contains(text, `"always"`) {
		t.Errorf("inside: %s", text)
	}
}
