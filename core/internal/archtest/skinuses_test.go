package archtest

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
)

// A skin may name a domain package's types (their fields and methods: the
// documents it renders) and constants; a domain function or package
// variable it uses is work the skin does itself instead of asking
// core/session. The uses are found with go/types, so an alias, a method
// value or a generic call cannot hide one.

// skinUse is what one skin takes from the domain.
type skinUse struct {
	renders map[string]bool // domain package → the skin names a type or constant of it
	calls   []string        // "file.go:Func → pkg.Symbol", sorted
}

var (
	usesOnce sync.Once
	usesOf   map[string]skinUse
	usesErr  error
)

// skinUses type-checks the skins once per test binary.
func skinUses(t *testing.T) map[string]skinUse {
	t.Helper()
	usesOnce.Do(func() { usesOf, usesErr = loadSkinUses(filepath.Join("..", "..", "..")) })
	if usesErr != nil {
		t.Fatal(usesErr)
	}
	return usesOf
}

func loadSkinUses(root string) (map[string]skinUse, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Dir:  root,
	}
	var patterns []string
	for _, s := range skinDirs {
		patterns = append(patterns, "./"+s)
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("load the skins: %w", err)
	}
	out := map[string]skinUse{}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("type-check %s: %v (does `go build ./...` pass?)", p.PkgPath, p.Errors[0])
		}
		out[strings.TrimPrefix(p.PkgPath, module)] = usesIn(p.Fset, p.Syntax, p.TypesInfo)
	}
	return out, nil
}

// usesIn is what files take from the domain packages of the module.
func usesIn(fset *token.FileSet, files []*ast.File, info *types.Info) skinUse {
	u := skinUse{renders: map[string]bool{}}
	for _, f := range files {
		file := filepath.Base(fset.Position(f.Pos()).Filename)
		for _, d := range f.Decls {
			where := file + ":" + declName(d)
			ast.Inspect(d, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				obj := info.Uses[id]
				if obj == nil || obj.Pkg() == nil {
					return true
				}
				dom, ok := strings.CutPrefix(obj.Pkg().Path(), module)
				if !ok || skinMay(dom) {
					return true
				}
				switch kind(obj) {
				case "type", "const":
					u.renders[dom] = true
				case "func", "var":
					if e := where + " → " + dom + "." + obj.Name(); !slices.Contains(u.calls, e) {
						u.calls = append(u.calls, e)
					}
				}
				return true
			})
		}
	}
	slices.Sort(u.calls)
	return u
}

// kind sorts a used object: "type" and "const" a skin may use, "func" and
// "var" (package level) it may not, "member" (field, method) it may.
func kind(obj types.Object) string {
	switch o := obj.(type) {
	case *types.TypeName:
		return "type"
	case *types.Const:
		return "const"
	case *types.Func:
		if o.Signature().Recv() != nil {
			return "member"
		}
		return "func"
	case *types.Var:
		// Looked up, not Parent(): an object read from export data may
		// have no parent scope set.
		if !o.IsField() && o.Pkg().Scope().Lookup(o.Name()) == o {
			return "var"
		}
	}
	return "member"
}

// declName is the function of a declaration (Type.Method for a method),
// or the first name a package-level var, const or type declares.
func declName(d ast.Decl) string {
	switch x := d.(type) {
	case *ast.FuncDecl:
		if x.Recv != nil {
			return typeName(x.Recv.List[0].Type) + "." + x.Name.Name
		}
		return x.Name.Name
	case *ast.GenDecl:
		for _, s := range x.Specs {
			switch s := s.(type) {
			case *ast.ValueSpec:
				return s.Names[0].Name
			case *ast.TypeSpec:
				return s.Name.Name
			}
		}
	}
	return "imports"
}

// TestSkinCallsNoDomain: a skin uses no domain function or package
// variable: it asks core/session, which returns the document it renders.
func TestSkinCallsNoDomain(t *testing.T) {
	uses := skinUses(t)
	if len(uses) != len(skinDirs) {
		t.Fatalf("type-checked %d skins, want %d (%v): the scan no longer finds them", len(uses), len(skinDirs), skinDirs)
	}
	for skin, u := range uses {
		for _, e := range u.calls {
			t.Errorf("skin %s: %s: a skin may use a domain package's types and constants only; move the call behind a method of core/session that returns the document", skin, e)
		}
	}
}

// The scan tells a skin's use of a domain type, constant, field or method
// (allowed) from a call of a domain function, a generic one, a function
// value or a package variable (each a finding), through an alias too.
func TestScanFindsDomainCalls(t *testing.T) {
	dom := `package apply
type Plan struct{ Files []string }
func (p *Plan) Len() int { return len(p.Files) }
const Kind = "plan"
var Default = &Plan{}
func Make() *Plan { return Default }
func Keys[T any](m map[string]T) []string { return nil }
`
	skin := `package commands
import ap "github.com/agentkit/charter/core/apply"
import "github.com/agentkit/charter/core/fsys"
type Cmd struct{}
func (Cmd) Render(p *ap.Plan) string { _ = fsys.Sep; return ap.Kind + p.Files[0] + string(rune(p.Len())) }
func (Cmd) Run() { p := ap.Make(); _ = p }
func generic() { _ = ap.Keys(map[string]int{}) }
func value() { f := ap.Make; _ = f; _ = ap.Default }
`
	fset := token.NewFileSet()
	checked := map[string]*types.Package{}
	check := func(path, name, src string) (*ast.File, *types.Info) {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: importerFunc(func(p string) (*types.Package, error) { return checked[p], nil })}
		pkg, err := conf.Check(path, fset, []*ast.File{f}, info)
		if err != nil {
			t.Fatal(err)
		}
		checked[path] = pkg
		return f, info
	}
	checked[module+"core/fsys"] = types.NewPackage(module+"core/fsys", "fsys")
	checked[module+"core/fsys"].Scope().Insert(types.NewConst(0, checked[module+"core/fsys"], "Sep", types.Typ[types.String], constant.MakeString("/")))
	checked[module+"core/fsys"].MarkComplete()
	check(module+"core/apply", "apply.go", dom)
	f, info := check(module+"commands", "run.go", skin)
	got := usesIn(fset, []*ast.File{f}, info)
	want := []string{
		"run.go:Cmd.Run → core/apply.Make",
		"run.go:generic → core/apply.Keys",
		"run.go:value → core/apply.Default",
		"run.go:value → core/apply.Make",
	}
	if !slices.Equal(got.calls, want) {
		t.Errorf("calls found:\n%s\nwant:\n%s", strings.Join(got.calls, "\n"), strings.Join(want, "\n"))
	}
	if !got.renders["core/apply"] || len(got.renders) != 1 {
		t.Errorf("renders %v, want core/apply only (core/fsys is the ground)", got.renders)
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
