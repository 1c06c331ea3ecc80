package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A skin's handler is parse, one session call, render (issue 34): the
// session owns the sequence, so two session calls in one function are a
// workflow sequenced in a skin. The scan counts, per function of a skin
// (closures inside it included), the calls of session methods — on
// a.session(), l.session(dir), s.sess, on a variable holding one of
// them or typed *session.Session — and the calls of the skin's own
// methods that make one (a.Scope(), a.readSettings(): a call through a
// helper is still a call).

// twoCalls lists the functions that still make more than one session
// call, by package, as file.go:Func (Type.Method for methods). It only
// shrinks: TestOneSessionCall fails on a function missing here, and on an
// entry whose function makes one call or none now. Each is a sequence
// still to move into a session method, except where said.
var twoCalls = map[string][]string{
	"commands": {
		// Not a request: `charter serve` resolves the scope and project it
		// then serves, and creates the config root, once at start-up.
		"serve.go:ServeCmd.Run",
	},
}

var skinDirs = []string{"commands", "server", "mcpserver"}

func TestOneSessionCall(t *testing.T) {
	for _, pkg := range skinDirs {
		dir := filepath.Join("..", "..", "..", pkg)
		found := sessionCalls(t, dir)
		if len(found) == 0 {
			t.Errorf("%s: no function calls the session: the scan no longer recognises how the skin reaches it", pkg)
		}
		allowed := twoCalls[pkg]
		for fn, calls := range found {
			if len(calls) > 1 && !slices.Contains(allowed, fn) {
				t.Errorf("%s %s calls the session %d times (%s): one request is one session call; add a session method that owns the sequence", pkg, fn, len(calls), strings.Join(calls, ", "))
			}
		}
		for _, fn := range allowed {
			if len(found[fn]) <= 1 {
				t.Errorf("%s %s makes one session call now: remove it from twoCalls", pkg, fn)
			}
		}
	}
}

// sessionCalls scans the non-test files of dir: function → the session
// calls it makes.
func sessionCalls(t *testing.T, dir string) map[string][]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return scanCalls(fset, files)
}

// scanCalls counts in two rounds: the first finds the methods that call
// the session (they count as one call where they are called), the second
// counts each function's calls.
func scanCalls(fset *token.FileSet, files []*ast.File) map[string][]string {
	wrappers := map[string]bool{} // "App.Scope"
	out := map[string][]string{}
	for round := range 2 {
		for _, f := range files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				calls := callsIn(fd, wrappers)
				name := funcName(fset, fd)
				if round == 0 && len(calls) > 0 && fd.Recv != nil {
					wrappers[typeName(fd.Recv.List[0].Type)+"."+fd.Name.Name] = true
				}
				if round == 1 && len(calls) > 0 {
					out[name] = calls
				}
			}
		}
	}
	return out
}

func funcName(fset *token.FileSet, fd *ast.FuncDecl) string {
	file := filepath.Base(fset.Position(fd.Pos()).Filename)
	if fd.Recv != nil {
		return fmt.Sprintf("%s:%s.%s", file, typeName(fd.Recv.List[0].Type), fd.Name.Name)
	}
	return file + ":" + fd.Name.Name
}

// typeName is T of T, *T, pkg.T and *pkg.T.
func typeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return typeName(x.X)
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return typeName(x.X) + "." + x.Sel.Name
	case *ast.IndexExpr:
		return typeName(x.X)
	}
	return ""
}

// callsIn lists the session calls in fd's body: method calls on a
// session, and calls of wrappers on the receiver or a parameter.
func callsIn(fd *ast.FuncDecl, wrappers map[string]bool) []string {
	typed := map[string]string{} // identifier → its type, for receiver and parameters
	sess := map[string]bool{}    // identifiers holding a session
	fields := []*ast.Field{}
	if fd.Recv != nil {
		fields = append(fields, fd.Recv.List...)
	}
	fields = append(fields, fd.Type.Params.List...)
	for _, f := range fields {
		for _, n := range f.Names {
			typed[n.Name] = typeName(f.Type)
			if typed[n.Name] == "session.Session" {
				sess[n.Name] = true
			}
		}
	}
	isSession := func(e ast.Expr) bool {
		switch x := e.(type) {
		case *ast.Ident:
			return sess[x.Name]
		case *ast.SelectorExpr: // s.sess
			return x.Sel.Name == "sess"
		case *ast.CallExpr: // a.session(), l.session(dir)
			sel, ok := x.Fun.(*ast.SelectorExpr)
			return ok && sel.Sel.Name == "session"
		}
		return false
	}
	inspect := func(n ast.Node) (calls []string) {
		if n == nil {
			return nil
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt: // s := a.session()
				for i, r := range x.Rhs {
					if id, ok := x.Lhs[i].(*ast.Ident); ok && len(x.Lhs) == len(x.Rhs) && isSession(r) {
						sess[id.Name] = true
					}
				}
			case *ast.ValueSpec: // var s *session.Session
				if typeName(x.Type) == "session.Session" {
					for _, id := range x.Names {
						sess[id.Name] = true
					}
				}
			case *ast.CallExpr:
				sel, ok := x.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if isSession(sel.X) {
					calls = append(calls, sel.Sel.Name)
				} else if id, ok := sel.X.(*ast.Ident); ok && wrappers[typed[id.Name]+"."+sel.Sel.Name] {
					calls = append(calls, id.Name+"."+sel.Sel.Name)
				}
			}
			return true
		})
		return calls
	}
	return branches(fd.Body.List, inspect)
}

// branches counts the calls of one path through stmts: of the branches
// of an if, an if that returns and the statements after it, or the cases
// of a switch, a request takes one, so the one with the most calls counts.
func branches(stmts []ast.Stmt, inspect func(ast.Node) []string) []string {
	var calls []string
	for i, st := range stmts {
		switch x := st.(type) {
		case *ast.IfStmt:
			calls = append(calls, inspect(x.Init)...)
			calls = append(calls, inspect(x.Cond)...)
			body := branches(x.Body.List, inspect)
			if x.Else == nil && returns(x.Body.List) {
				return append(calls, longer(body, branches(stmts[i+1:], inspect))...)
			}
			var other []string
			if x.Else != nil {
				other = branches([]ast.Stmt{x.Else}, inspect)
			}
			calls = append(calls, longer(body, other)...)
		case *ast.BlockStmt:
			calls = append(calls, branches(x.List, inspect)...)
		case *ast.SwitchStmt:
			calls = append(calls, inspect(x.Init)...)
			calls = append(calls, inspect(x.Tag)...)
			return append(calls, cases(x.Body, branches(stmts[i+1:], inspect), inspect)...)
		case *ast.TypeSwitchStmt:
			calls = append(calls, inspect(x.Init)...)
			calls = append(calls, inspect(x.Assign)...)
			return append(calls, cases(x.Body, branches(stmts[i+1:], inspect), inspect)...)
		default:
			calls = append(calls, inspect(st)...)
		}
	}
	return calls
}

// cases is the path through a switch with the most calls: a case that
// returns ends it, the others go on to rest (as does a switch without a
// default that no case matches).
func cases(body *ast.BlockStmt, rest []string, inspect func(ast.Node) []string) []string {
	var most []string
	deflt := false
	for _, c := range body.List {
		cc := c.(*ast.CaseClause)
		deflt = deflt || cc.List == nil
		var calls []string
		for _, e := range cc.List {
			calls = append(calls, inspect(e)...)
		}
		calls = append(calls, branches(cc.Body, inspect)...)
		if !returns(cc.Body) {
			calls = append(calls, rest...)
		}
		most = longer(most, calls)
	}
	if !deflt {
		most = longer(most, rest)
	}
	return most
}

func returns(stmts []ast.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	_, ok := stmts[len(stmts)-1].(*ast.ReturnStmt)
	return ok
}

func longer(a, b []string) []string {
	if len(b) > len(a) {
		return b
	}
	return a
}

// The scan finds two calls however the session is reached, and counts a
// helper that calls it as a call.
func TestScanFindsTwoCalls(t *testing.T) {
	src := `package x
func (a *App) Scope() (Scope, error) { return a.session().Scope() }
func (c *OneCmd) Run(a *App) error { _, err := a.session().Ping(ctx); return err }
func (c *TwoCmd) Run(a *App) error {
	s := a.session()
	if _, err := s.Status(ctx); err != nil { return err }
	_, err := a.Scope()
	return err
}
func (s *Server) handler(w W, r *R) error {
	s.sess.Trust(ctx)
	return nil
}
func (s *Server) two(w W, r *R) error {
	return run(func() error { _, err := s.sess.Apply(ctx); return err }, s.sess.Plan)
}
func (l *Local) get(sess *session.Session) { sess.SettingsGet(ctx); l.session(dir).Ping(ctx) }
func plain() { var x *session.Session; x.Ping(ctx); x.Status(ctx) }
func (c *BranchCmd) Run(a *App) error {
	if c.List {
		_, err := a.session().TrustedProjects(ctx)
		return err
	}
	switch {
	case c.Revoke:
		a.session().Revoke(ctx)
		return nil
	case c.Show:
		a.session().TrustState(ctx)
	}
	a.session().Trust(ctx)
	return nil
}
func (c *AfterCmd) Run(a *App) error {
	if c.X {
		a.session().Trust(ctx)
	} else {
		a.session().Revoke(ctx)
	}
	_, err := a.session().Status(ctx)
	return err
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := scanCalls(fset, []*ast.File{f})
	want := map[string]int{"x.go:App.Scope": 1, "x.go:OneCmd.Run": 1, "x.go:TwoCmd.Run": 2, "x.go:Server.handler": 1, "x.go:Server.two": 1, "x.go:Local.get": 2, "x.go:plain": 2, "x.go:BranchCmd.Run": 2, "x.go:AfterCmd.Run": 2}
	for fn, n := range want {
		if len(got[fn]) != n {
			t.Errorf("%s: found %d session calls %v, want %d", fn, len(got[fn]), got[fn], n)
		}
	}
}
