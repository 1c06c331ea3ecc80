package session

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The skins (the command line, the HTTP server, the MCP server) parse,
// call the session and render: none of them assembles a settings store,
// finds a project or plans and runs apply itself, so they cannot disagree
// on what a request sees.
var skins = []string{"../../commands", "../../server", "../../mcpserver"}

// assembly lists what only the session may call: functions by package.
var assembly = map[string][]string{
	"github.com/agentkit/charter/core/settings": {"Open", "LoadPolicy"},
	"github.com/agentkit/charter/core/apply":    {"Plan", "PlanRequest", "Run"},
	"github.com/agentkit/charter/core/project":  {"Find", "FindFrom", "ToTrust", "Ignored", "RootForCreate", "At"},
}

func TestSkinsCallTheSession(t *testing.T) {
	for _, dir := range skins {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			found++
			src, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range assembles(t, filepath.Join(dir, name), src) {
				t.Errorf("%s builds what the session resolves: call the session's method instead", v)
			}
		}
		if found == 0 {
			t.Errorf("%s: no source files: the list of skins is out of date", dir)
		}
	}
}

// The scan finds each kind of assembly, under any import name.
func TestScanFindsAssembly(t *testing.T) {
	src := `package x
import (
	s "github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/project"
)
func f() {
	s.Open(nil, sc, nil, nil)
	apply.PlanRequest(nil, nil, nil, apply.Request{})
	project.Find(a.Sys, nil, false)
	apply.Status(nil) // rendering a plan is a skin's
}`
	got := assembles(t, "x.go", []byte(src))
	want := []string{"x.go:8: settings.Open", "x.go:9: apply.PlanRequest", "x.go:10: project.Find"}
	if !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}

// assembles lists the calls in src that only the session may make.
func assembles(t *testing.T, name string, src []byte) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string]string{} // name in this file → import path
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		local := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			local = imp.Name.Name
		}
		imports[local] = path
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		line := fset.Position(call.Pos()).Line
		if id, ok := sel.X.(*ast.Ident); ok {
			if path, ok := imports[id.Name]; ok && slices.Contains(assembly[path], sel.Sel.Name) {
				out = append(out, fmt.Sprintf("%s:%d: %s.%s", name, line, path[strings.LastIndex(path, "/")+1:], sel.Sel.Name))
				return true
			}
		}
		return true
	})
	return out
}
