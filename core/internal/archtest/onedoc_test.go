package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneDeclarationPerDoc: a document a skin renders (a type named
// …Doc, such as KeyDoc) is declared in one package, so two skins cannot
// drift apart with copies of it (issue 34: KeyDoc was declared twice).
func TestOneDeclarationPerDoc(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	where := map[string][]string{}
	eachSource(t, root, parser.SkipObjectResolution, func(rel string, f *ast.File) {
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, spec := range g.Specs {
				name := spec.(*ast.TypeSpec).Name.Name
				if strings.HasSuffix(name, "Doc") && name != "Doc" { // Doc alone: a parsed file, per format
					where[name] = append(where[name], path.Dir(rel))
				}
			}
		}
	})
	if len(where["KeyDoc"]) == 0 {
		t.Fatal("no KeyDoc found: the scan reads no source")
	}
	for name, dirs := range where {
		if len(dirs) > 1 {
			t.Errorf("%s is declared in %v: keep one declaration (in the package whose method returns it) and have the others use it", name, dirs)
		}
	}
}
