package commands

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/settings"
	"github.com/agentkit/charter/core/tomledit"
	"github.com/agentkit/charter/core/trust"
	"github.com/agentkit/charter/mcpserver"
	"github.com/agentkit/charter/server"
)

// The tests here hold the two skins to core's one error vocabulary: every
// code has one exit status and one HTTP status, every error type in core
// names a code of that list, and an error with no code comes out of both
// skins as "internal".

const module = "github.com/agentkit/charter"

// Every code maps to exactly one exit status and one HTTP status (a switch
// cannot list a code twice).
func TestEveryCodeHasAnExitAndAStatus(t *testing.T) {
	codes := errcode.All()
	seen := map[string]bool{}
	for _, code := range codes {
		if seen[code] {
			t.Errorf("errcode.All lists %q twice", code)
		}
		seen[code] = true
		if _, ok := exitFor(code); !ok {
			t.Errorf("code %q has no exit status in commands/exit.go", code)
		}
		if _, ok := server.Status(code); !ok {
			t.Errorf("code %q has no HTTP status in server/errors.go", code)
		}
	}
	// The statuses the contract fixes (SPEC §3, docs/http-api.md).
	for code, want := range map[string]ExitCode{
		core.CodeInternal: 1, core.CodeUsage: 2, core.CodeInvalidValue: 2, core.CodeUnknownKey: 2,
		core.CodeMalformedSettings: 1, core.CodeNoServer: 3, core.CodeSharedWrite: 4,
		core.CodeCancelled: 4, core.CodeOutdated: 5, core.CodeCheckFailed: 5, core.CodeNotSupported: 6,
	} {
		if got, _ := exitFor(code); got != want {
			t.Errorf("exit status of %s = %d, want %d", code, got, want)
		}
	}
	for code, want := range map[string]int{
		core.CodeInternal: 500, core.CodeInvalidJSON: 400, core.CodeInvalidRequest: 422,
		core.CodeUnknownKey: 422, core.CodeInvalidValue: 422, core.CodeSharedWrite: 409,
		core.CodeMalformedMarkers: 409, core.CodeStaleETag: 412, core.CodeNotFound: 404,
		core.CodeMethodNotAllowed: 405, core.CodePayloadTooLarge: 413, core.CodeUnauthorized: 401,
		core.CodeForbiddenOrigin: 403, core.CodeMisdirectedRequest: 421,
		core.CodePreconditionRequired: 428, core.CodeMalformedSettings: 500,
	} {
		if got, _ := server.Status(code); got != want {
			t.Errorf("HTTP status of %s = %d, want %d", code, got, want)
		}
	}
}

// samples holds one value of every error type declared in core, keyed by
// package path and type name. A new error type fails
// TestEveryErrorTypeHasACode until it has a Code method and a sample here
// whose code is in the vocabulary.
var samples = map[string]error{
	module + "/core/errcode.Error":                 core.Errorf(core.CodeNotSupported, "x"),
	module + "/core.SharedWriteError":              &core.SharedWriteError{Target: "/t", SharedPath: "/l"},
	module + "/core/settings.ValidationError":      &settings.ValidationError{Problems: []settings.Problem{{Code: core.CodeInvalidValue}}},
	module + "/core/settings.StaleError":           &settings.StaleError{Current: `"e"`},
	module + "/core/settings.ConflictError":        &settings.ConflictError{Keys: []string{"rules.tier"}, Current: `"e"`},
	module + "/core/settings.FileError":            &settings.FileError{Path: "/s", Problems: []settings.FileProblem{{File: "/s", Line: 1, Message: "x"}}},
	module + "/core/apply.MarkerError":             &apply.MarkerError{Path: "/c", Msg: "x"},
	module + "/core/apply.BlockedError":            &apply.BlockedError{},
	module + "/server.NoServerError":               &server.NoServerError{Path: "/d"},
	module + "/server.RunningError":                &server.RunningError{},
	module + "/core/apply.MCPJSONError":            &apply.MCPJSONError{Line: 1, Msg: "x"},
	module + "/mcpserver.toolError":                mcpserver.ToolErrorSample(),
	module + "/core/settings.GovLockError":         &settings.GovLockError{Key: "permissions.allow", Item: "shell:git push", Policy: "/p"},
	module + "/core/settings.PolicyError":          &settings.PolicyError{Key: "rules.tier", Policy: "/p"},
	module + "/core/settings.MalformedPolicyError": &settings.MalformedPolicyError{Path: "/p"},
	module + "/core/fsys.BlockedError":             &fsys.BlockedError{Link: "/l"},
	module + "/core/fsys.LinkLoopError":            &fsys.LinkLoopError{Path: "/p"},
	module + "/core/fsys.IsDirError":               &fsys.IsDirError{Path: "/p"},
	module + "/core/fsys.NotDirError":              &fsys.NotDirError{Path: "/p"},
	module + "/core/fsys.NotRegularError":          &fsys.NotRegularError{Path: "/p"},
	module + "/core/fsys.ReadOnlyError":            &fsys.ReadOnlyError{Path: "/p"},
	module + "/core/fsys.ChangedError":             &fsys.ChangedError{Path: "/p", What: "changed"},
	module + "/core/fsys.NotAbsError":              &fsys.NotAbsError{Path: "p"},
	module + "/core/fsys.OutsideError":             &fsys.OutsideError{Path: "/p/f", Link: "/p/l", Root: "/p"},
	module + "/core/fsys.TooLargeError":            &fsys.TooLargeError{Path: "/p"},
	module + "/core/fsys.NotSupportedError":        &fsys.NotSupportedError{Path: "/p"},
	module + "/core/fsys.NoWriteError":             &fsys.NoWriteError{Op: "write", Path: "/p"},
	module + "/core/tomledit.ParseError":           &tomledit.ParseError{Line: 3, Msg: "this is not valid TOML"},
	module + "/core/fsys.GitDirError":              &fsys.GitDirError{Path: "/p/.git/x", Git: "/p/.git"},
	module + "/core/fsys.LinkedError":              &fsys.LinkedError{Path: "/p/a", Link: "/p/a"},
	module + "/core/fsys.DanglingError":            &fsys.DanglingError{Path: "/p/a", Link: "/p/a", Missing: "/n"},
	module + "/core/apply.AgentSettingsError":      &apply.AgentSettingsError{Line: 1, Msg: "x"},
	module + "/core/gates.ReportError":             &gates.ReportError{Line: 1, Reason: "x"},
	module + "/core/content.MalformedError":        &content.MalformedError{Problems: []content.Problem{{Path: "/p", Line: 1, Message: "x"}}},
	module + "/core.NotWritableError":              &core.NotWritableError{Target: "/p/f", Dir: "/p"},
	module + "/core/trust.FileError":               &trust.FileError{Path: "/h/trust.json", Problem: "is writable by group or others (mode 0666)", Fix: "chmod 600 /h/trust.json"},
	module + "/core/settings.PolicyItemError":      &settings.PolicyItemError{Key: "rules.disabled", Name: "x", Folder: "/p"},
}

// Every type in core that is an error (it has an Error method) has a Code
// method too, and a sample whose code is in the vocabulary, so that no
// error type reaches a skin without a code. Errorf and Error literals must
// name a Code constant, and core has no uncoded sentinel errors.
func TestEveryErrorTypeHasACode(t *testing.T) {
	types := scanErrorTypes(t, filepath.Join("..", "core"))
	for _, skin := range []string{"server", "mcpserver"} { // the skins moved out of core keep their codes
		for name, hasCode := range scanErrorTypes(t, filepath.Join("..", skin)) {
			types[name] = hasCode
		}
	}
	if len(types) < len(samples) {
		t.Fatalf("found %d error types in core, fewer than the %d samples: is the scan broken?", len(types), len(samples))
	}
	known := map[string]bool{}
	for _, c := range errcode.All() {
		known[c] = true
	}
	for name, hasCode := range types {
		if !hasCode {
			t.Errorf("%s has an Error method but no Code method: give it a code from core/errors.go", name)
		}
		sample, ok := samples[name]
		if !ok && !ast.IsExported(name[strings.LastIndex(name, ".")+1:]) {
			continue // a package's own type: its Code method is enough
		}
		if !ok {
			t.Errorf("%s has no sample in commands/vocab_test.go: add one", name)
			continue
		}
		if v := reflect.TypeOf(sample); v.Kind() != reflect.Pointer || v.Elem().PkgPath()+"."+v.Elem().Name() != name {
			t.Errorf("the sample for %s is a %v", name, v)
		}
		code := core.ErrorCode(sample)
		if code == core.CodeInternal || !known[code] {
			t.Errorf("%s says code %q, which is not in errcode.All (or is internal)", name, code)
		}
	}
	for name := range samples {
		if _, ok := types[name]; !ok {
			t.Errorf("sample %s names no error type in core", name)
		}
	}
}

// scanErrorTypes parses every non-test Go file below root and returns each
// type that has an Error() string method, with whether it also has a
// Code() string method. It fails on Errorf calls and Error literals whose code is not a Code constant, and on package-level errors
// made with errors.New or fmt.Errorf.
func scanErrorTypes(t *testing.T, root string) map[string]bool {
	t.Helper()
	errorMethod := map[string]bool{}
	codeMethod := map[string]bool{}
	eachSource(t, root, func(rel string, fset *token.FileSet, f *ast.File) {
		pkg := module + "/" + rel
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) != 1 || d.Type.Params.NumFields() != 0 || !returnsString(d.Type) {
					continue
				}
				name := pkg + "." + receiverName(d.Recv.List[0].Type)
				switch d.Name.Name {
				case "Error":
					errorMethod[name] = true
				case "Code":
					codeMethod[name] = true
				}
			case *ast.GenDecl:
				if d.Tok == token.VAR {
					for _, spec := range d.Specs {
						vs := spec.(*ast.ValueSpec)
						if len(vs.Names) > 0 && !vs.Names[0].IsExported() {
							continue // a package's own control-flow sentinel never reaches a skin
						}
						for _, v := range vs.Values {
							if isCall(v, "errors", "New") || isCall(v, "fmt", "Errorf") {
								t.Errorf("%s: a package-level error without a code: make it a *core.Error", fset.Position(v.Pos()))
							}
						}
					}
				}
			}
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "Errorf" {
				continue // the constructor itself passes its code on
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				checkCodeUse(t, fset, n)
				return true
			})
		}
	})
	out := map[string]bool{}
	for name := range errorMethod {
		out[name] = codeMethod[name]
	}
	return out
}

// eachSource parses every Go file below root but tests and calls fn with
// its package's path from the module root.
func eachSource(t *testing.T, root string, fn func(rel string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", filepath.Dir(path))
		fn(filepath.ToSlash(rel), fset, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkCodeUse fails on core.Errorf("…") and Error{…} literals whose code
// is not a Code constant (core.CodeX or errcode.X).
func checkCodeUse(t *testing.T, fset *token.FileSet, n ast.Node) {
	t.Helper()
	isCode := func(e ast.Expr) bool {
		switch x := e.(type) {
		case *ast.Ident:
			return strings.HasPrefix(x.Name, "Code")
		case *ast.SelectorExpr:
			pkg, _ := x.X.(*ast.Ident)
			return strings.HasPrefix(x.Sel.Name, "Code") || pkg != nil && pkg.Name == "errcode"
		}
		return false
	}
	switch x := n.(type) {
	case *ast.CallExpr:
		if name := funcName(x.Fun); name == "Errorf" && !isCall(x, "fmt", "Errorf") && len(x.Args) > 0 && !isCode(x.Args[0]) {
			t.Errorf("%s: Errorf without a Code constant", fset.Position(x.Pos()))
		}
	case *ast.CompositeLit:
		name := funcName(x.Type)
		if name != "Error" {
			return
		}
		if sel, ok := x.Type.(*ast.SelectorExpr); ok {
			if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "core" {
				return // another package's Error type (jsonrpc.Error)
			}
		}
		hasKind := false
		for _, el := range x.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok || funcName(kv.Key) != "Kind" {
				continue
			}
			hasKind = true
			if !isCode(kv.Value) {
				t.Errorf("%s: an Error with a Kind that is not a Code constant", fset.Position(x.Pos()))
			}
		}
		if !hasKind {
			t.Errorf("%s: an Error without a Kind", fset.Position(x.Pos()))
		}
	}
}

func returnsString(ft *ast.FuncType) bool {
	r := ft.Results
	if r == nil || len(r.List) != 1 {
		return false
	}
	id, ok := r.List[0].Type.(*ast.Ident)
	return ok && id.Name == "string"
}

func receiverName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr: // a generic type
		return receiverName(x.X)
	}
	return ""
}

// funcName is the last name of an identifier or selector.
func funcName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}

func isCall(e ast.Expr, pkg, fn string) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg && sel.Sel.Name == fn
}

// An error without a code comes out of both skins as "internal": exit 1
// and HTTP 500, the same code in both JSON bodies.
func TestUncodedErrorIsInternalInBothSkins(t *testing.T) {
	uncoded := errors.New("disk on fire")
	var out, errb bytes.Buffer
	app := newApp(Build{Version: "t"}, strings.NewReader(""), &out, &errb, nil, afero.NewMemMapFs(), []string{"--json"})
	if got := app.fail(uncoded); got != ExitRuntime {
		t.Errorf("exit status %d, want %d", got, ExitRuntime)
	}
	if !strings.Contains(out.String(), `"code": "internal"`) {
		t.Errorf("CLI body %s, want code internal", out.String())
	}
	if got, _ := server.Status(core.ErrorCode(uncoded)); got != http.StatusInternalServerError {
		t.Errorf("HTTP status %d, want 500", got)
	}
	// A coded error keeps its code through wrapping, in both skins.
	wrapped := errors.Join(errors.New("context"), &core.Error{Kind: core.CodeUnknownID, Msg: "x"})
	if got, _ := exitFor(core.ErrorCode(wrapped)); got != ExitUsage {
		t.Errorf("wrapped unknown_id: exit %d, want 2", got)
	}
	if got, _ := server.Status(core.ErrorCode(wrapped)); got != http.StatusUnprocessableEntity {
		t.Errorf("wrapped unknown_id: HTTP %d, want 422", got)
	}
}

// Kong's parse errors leave as usage errors (exit 2, code usage), never
// with Kong's own status 80.
func TestParseErrorsAreUsage(t *testing.T) {
	for _, args := range [][]string{{"--bogus"}, {"settings", "get"}, {"serve", "--idle-timeout", "soon"}, {"nope"}} {
		r := runCharter(t, t.TempDir(), "", false, append(args, "--json")...)
		if r.code != int(ExitUsage) || !strings.Contains(r.stdout, `"code": "usage"`) {
			t.Errorf("%v: exit %d, stdout %s; want 2 and code usage", args, r.code, r.stdout)
		}
	}
}
