package commands

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/errcode"
)

// The tests here hold the module to one spelling of each code (core/errcode)
// and one builder of the error document (errcode.NewBody), by reading
// the source as vocab_test.go does.

// errcode.All lists every constant of core/errcode, and nothing else.
func TestCodesListsEveryConstant(t *testing.T) {
	var consts []string
	for _, c := range constDecls(t, filepath.Join("..", "core", "errcode", "errcode.go")) {
		lit, ok := c.value.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			t.Errorf("errcode.%s is not a string literal", c.name)
			continue
		}
		v, _ := strconv.Unquote(lit.Value)
		consts = append(consts, v)
	}
	got := errcode.All()
	slices.Sort(consts)
	slices.Sort(got)
	if !slices.Equal(consts, got) {
		t.Errorf("errcode.All() = %v\nconstants  = %v", got, consts)
	}
}

// core's CodeX names are errcode's constants, one for one: CodeX is
// errcode.X and nothing else, so core holds no second spelling of a code.
func TestCoreCodesAreErrcodes(t *testing.T) {
	want := map[string]bool{}
	for _, c := range constDecls(t, filepath.Join("..", "core", "errcode", "errcode.go")) {
		want[c.name] = true
	}
	for _, c := range constDecls(t, filepath.Join("..", "core", "errors.go")) {
		if !isCodeName(c.name) {
			continue
		}
		name := strings.TrimPrefix(c.name, "Code")
		sel, _ := c.value.(*ast.SelectorExpr)
		if sel == nil || funcName(sel.X) != "errcode" || sel.Sel.Name != name {
			t.Errorf("core.%s is not errcode.%s", c.name, name)
		}
		delete(want, name)
	}
	for name := range want {
		t.Errorf("errcode.%s has no core.Code%s", name, name)
	}
}

// isCodeName is CodeX, not a word that starts so (CodexHookFile).
func isCodeName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Code")
	return ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z'
}

type constDecl struct {
	name  string
	value ast.Expr
}

// constDecls lists the constants of one Go file with their values.
func constDecls(t *testing.T, path string) []constDecl {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []constDecl
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if i < len(vs.Values) {
					out = append(out, constDecl{n.Name, vs.Values[i]})
				}
			}
		}
	}
	return out
}

// Only core/errcode spells a code: no Code method returns a string
// literal and no Code constant is one anywhere else in the module, so a
// code cannot be misspelled or drift from the list the exit and HTTP
// tables are held to.
func TestNoCodeSpelledOutsideErrcode(t *testing.T) {
	isString := func(e ast.Expr) bool {
		lit, ok := e.(*ast.BasicLit)
		return ok && lit.Kind == token.STRING
	}
	checked := 0
	eachSource(t, "..", func(rel string, fset *token.FileSet, f *ast.File) {
		if rel == "core/errcode" || strings.Contains("/"+rel+"/", "/testdata/") {
			return
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || d.Name.Name != "Code" || d.Body == nil {
					continue
				}
				checked++
				ast.Inspect(d.Body, func(n ast.Node) bool {
					if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 1 && isString(r.Results[0]) {
						t.Errorf("%s: a Code method spells its code: return an errcode constant (core.CodeX above core)", fset.Position(r.Pos()))
					}
					return true
				})
			case *ast.GenDecl:
				if d.Tok != token.CONST {
					continue
				}
				for _, spec := range d.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if isCodeName(n.Name) && i < len(vs.Values) && isString(vs.Values[i]) {
							t.Errorf("%s: %s spells a code: use the errcode constant", fset.Position(n.Pos()), n.Name)
						}
					}
				}
			}
		}
	})
	if checked < 20 {
		t.Fatalf("found %d Code methods: is the scan broken?", checked)
	}
}

// Only errcode.NewBody builds the error document: no map[string]any
// literal outside core/errcode/error.go has an "error" or a "code" key, so the CLI, the HTTP API
// and the MCP server cannot each shape their own.
func TestOneErrorBody(t *testing.T) {
	eachSource(t, "..", func(rel string, fset *token.FileSet, f *ast.File) {
		if strings.Contains("/"+rel+"/", "/testdata/") {
			return
		}
		if rel == "core/errcode" && strings.HasSuffix(fset.File(f.Pos()).Name(), "error.go") {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if m, isMap := lit.Type.(*ast.MapType); !isMap || !isAny(m.Value) {
				return true // a map of other values (a schema's properties)
			}
			for _, el := range lit.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if k, ok := kv.Key.(*ast.BasicLit); ok && (k.Value == `"error"` || k.Value == `"code"`) {
					t.Errorf("%s: a map with the key %s: build error bodies with errcode.NewBody", fset.Position(k.Pos()), k.Value)
				}
			}
			return true
		})
	})
}

func isAny(e ast.Expr) bool {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name == "any"
	}
	it, ok := e.(*ast.InterfaceType)
	return ok && len(it.Methods.List) == 0
}
