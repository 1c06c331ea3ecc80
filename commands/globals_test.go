package commands

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"testing"
)

// exportedVars are the exported package-level variables core and helpers
// may have, each with the reason it is one. Anything else exported and
// mutable is a global another package can change under everyone: make it
// a function, a constant or unexported (STYLE.md: no package-level
// mutable state).
var exportedVars = map[string]string{
	"core.ErrNoHome":                    "a sentinel error, matched with errors.Is",
	"core/sources.ErrNoGit":             "a sentinel error, matched with errors.Is",
	"core/sources.ErrNotCached":         "a sentinel error, matched with errors.Is",
	"core/session.ErrNoProject":         "a sentinel error, matched with errors.Is: each skin names the project in its own words",
	"helpers/decmath.ErrNotNumeric":     "a sentinel error, matched with errors.Is",
	"helpers/decmath.ErrDivisionByZero": "a sentinel error, matched with errors.Is",
	"mcpserver.Agents":                  "the agents --print-config knows; mcpserver's exported lists are reworked on their own branch",
	"mcpserver.CodexEnvVars":            "the variables charter's Codex entry asks Codex to pass; reworked with Agents on that branch",
}

// No exported package-level var in core/... or helpers/... beyond
// exportedVars.
func TestNoExportedPackageVars(t *testing.T) {
	seen := map[string]bool{}
	for _, root := range []string{"core", "helpers"} {
		eachSource(t, filepath.Join("..", root), func(pkg string, fset *token.FileSet, f *ast.File) {
			for _, decl := range f.Decls {
				g, ok := decl.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				for _, spec := range g.Specs {
					for _, n := range spec.(*ast.ValueSpec).Names {
						if !n.IsExported() {
							continue
						}
						name := pkg + "." + n.Name
						seen[name] = true
						if _, ok := exportedVars[name]; !ok {
							t.Errorf("%s: exported package-level var %s: make it a function, a constant or unexported (or, for a sentinel error, list it in exportedVars)", fset.Position(n.Pos()), name)
						}
					}
				}
			}
		})
	}
	if !seen["core.ErrNoHome"] {
		t.Fatal("the scan did not see core.ErrNoHome: is it broken?")
	}
}
