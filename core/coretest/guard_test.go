package coretest_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/coretest"
)

const module = "github.com/agentkit/charter"

// sources parses every non-test Go file of the module outside this package.
func sources(t *testing.T, mode parser.Mode) map[string]*ast.File {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	files := map[string]*ast.File{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || strings.HasPrefix(n, ".") && p != root || p == filepath.Join(root, "core", "coretest") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, mode)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("only %d source files found", len(files))
	}
	return files
}

// Fixtures stay in tests: no non-test file imports this package, nor the
// race flipper (core/internal/swaptest).
func TestOnlyTestsImport(t *testing.T) {
	for name, f := range sources(t, parser.ImportsOnly) {
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == module+"/core/coretest" || p == module+"/core/internal/swaptest" {
				t.Errorf("%s imports %s: only _test.go files may", name, p)
			}
		}
	}
}

// Variables charter reads that a Machine need not clear: they are pinned,
// or read only where the pinned ones leave no room for the machine's.
var (
	pinned   = []string{"HOME", "PATH", coretest.PolicyVar}
	harmless = []string{
		"USERPROFILE",                // only when HOME is blank
		"ProgramData", "PROGRAMDATA", // only without AGENTKIT_POLICY_FILE
		"PATHEXT", "TMPDIR", "TMP", "TEMP", // Windows program search; the edit's scratch directory
		"CHARTER_GATE_RUN", // set in a gate's environment, never read from charter's own
		// Where Go's build cache is: only whether the running binary lies
		// in it (a test binary always does; clearing GOCACHE would make the
		// scripts' own `go` builds start cold).
		"GOCACHE", "XDG_CACHE_HOME", "LocalAppData",
		"GOMEMLIMIT", // the Go runtime's own: when set, apply keeps it instead of its own
		"GOGC",       // the Go runtime's own: when set, apply keeps it instead of its own
		"COLUMNS",    // only the help's width, as Kong reads it
	}
)

// Every variable charter reads is pinned, cleared or harmless, so that a new
// one cannot carry the developer's own directories into the tests. Checked
// are the names charter's code reads directly (Getenv, Vars.Get/Has/Array,
// by literal or constant) and every literal shaped like a variable of its
// own (FOO_BAR).
func TestVariablesClassified(t *testing.T) {
	known := slices.Concat(pinned, harmless, coretest.Cleared())
	seen := readVars(t)
	for v, where := range seen {
		if !slices.Contains(known, v) {
			t.Errorf("%s (read in %s) is neither pinned nor cleared by coretest: add it to Cleared, or to harmless in this test with why", v, where)
		}
	}
}

// `charter help environment` lists every variable charter reads, and none
// it does not: a new variable fails here until core.Environment says what
// it does.
func TestEnvironmentTopicComplete(t *testing.T) {
	listed := map[string]bool{}
	for _, v := range core.Environment(agents.Default()) {
		listed[v.Name] = true
	}
	seen := readVars(t)
	for v, where := range seen {
		if !listed[v] {
			t.Errorf("%s (read in %s) is missing from core.Environment, which `charter help environment` prints: add it with what it does", v, where)
		}
	}
	// Names like TMPDIR or EDITOR are read from lists the scan cannot
	// follow; a FOO_BAR name it would have found.
	for v := range listed {
		if _, ok := seen[v]; !ok && strings.Contains(v, "_") {
			t.Errorf("core.Environment lists %s, which charter no longer reads", v)
		}
	}
}

// readVars scans charter's sources for the variables it reads: the names
// read directly (Getenv, Vars.Get/Has/Array, by literal or constant) and
// every literal shaped like a variable of its own (FOO_BAR), each with a
// file that reads it.
func readVars(t *testing.T) map[string]string {
	t.Helper()
	files := sources(t, 0)
	// Package-level string constants, by package directory and name.
	consts := map[string]map[string]string{}
	for name, f := range files {
		dir := path.Dir(name)
		if consts[dir] == nil {
			consts[dir] = map[string]string{}
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
								consts[dir][n.Name], _ = strconv.Unquote(lit.Value)
							}
						}
					}
				}
			}
		}
	}
	shaped := regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$`)
	seen := map[string]string{}
	for name, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if v, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && shaped.MatchString(v) {
					seen[v] = name
				}
			case *ast.CallExpr:
				if v, ok := envRead(n, consts, path.Dir(name)); ok {
					seen[v] = name
				}
			}
			return true
		})
	}
	for _, must := range []string{"HOME", "AGENTKIT_POLICY_FILE", "CLAUDE_CONFIG_DIR", "ProgramData"} {
		if _, ok := seen[must]; !ok {
			t.Errorf("the scan missed %s: it no longer finds what charter reads", must)
		}
	}
	return seen
}

// envRead is the variable a call reads: x.Getenv(NAME), x.LookupEnv(NAME),
// x.Vars.Get/Has/Array(NAME, ...), NAME a literal or a constant.
func envRead(call *ast.CallExpr, consts map[string]map[string]string, dir string) (string, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) == 0 {
		return "", false
	}
	switch sel.Sel.Name {
	case "Getenv", "LookupEnv":
	case "Get", "Has", "Array":
		if x, ok := sel.X.(*ast.SelectorExpr); !ok || x.Sel.Name != "Vars" {
			return "", false
		}
	default:
		return "", false
	}
	switch a := call.Args[0].(type) {
	case *ast.BasicLit:
		v, err := strconv.Unquote(a.Value)
		return v, err == nil
	case *ast.Ident:
		v, ok := consts[dir][a.Name]
		return v, ok
	case *ast.SelectorExpr: // pkg.Name: the package's directory is its import path's tail
		if pkg, ok := a.X.(*ast.Ident); ok {
			for d, m := range consts {
				if path.Base(d) == pkg.Name {
					if v, ok := m[a.Sel.Name]; ok {
						return v, true
					}
				}
			}
		}
	}
	return "", false
}
