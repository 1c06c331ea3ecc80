package archtest

import (
	"go/ast"
	"path/filepath"
	"testing"
)

// TestRootImportsNoDomain: the root core package is the injected
// environment; it imports the ground and the agent table's data, never a
// package that decides something (core/profile takes the System, not the
// other way round), so no file has to exist to break a cycle.
func TestRootImportsNoDomain(t *testing.T) {
	for _, d := range graph(t, filepath.Join("..", "..", ".."))["core"] {
		if !ground(d) && d != "core/agents" {
			t.Errorf("core imports %s: the root package holds the environment only; move the code that needs %s into a domain package that takes a *core.System", d, d)
		}
	}
}

// TestOneSystemConstructor: a production System is built by
// session.NewSystem (tests: core/coretest), which hands core.NewSystem
// charter's write guard; any other caller could build one without it.
func TestOneSystemConstructor(t *testing.T) {
	allowed := map[string]bool{"core/session/system.go": true, "core/coretest/coretest.go": true}
	root := filepath.Join("..", "..", "..")
	found := 0
	eachSource(t, root, 0, func(rel string, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "NewSystem" {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "core" {
				found++
				if !allowed[rel] {
					t.Errorf("%s calls core.NewSystem: build the System with session.NewSystem, which passes the write guard", rel)
				}
			}
			return true
		})
	})
	if found != len(allowed) {
		t.Errorf("found %d calls of core.NewSystem, want one in each of %v: the scan no longer sees them", found, allowed)
	}
}
