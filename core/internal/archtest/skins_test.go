package archtest

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// stillToMove is every import of a domain package by a skin that the skin
// uses for nothing but calls: no type or constant of it is named (issue
// 34 moves the calls behind core/session, then the import goes). It only
// shrinks: TestSkinImports fails on such an import missing here, and
// TestStillToMoveShrinks on an entry the code no longer has.
var stillToMove = map[string][]string{}

func isSkin(p string) bool { return layers[layerOf(p)].name == "skins" }

// skinMay is what a skin may import: core/session, another skin, the
// ground (core/fsys, core/errcode, core/inert, helpers/*).
func skinMay(dep string) bool {
	return dep == "core/session" || isSkin(dep) || ground(dep)
}

// TestSkinImports: commands, server and mcpserver import no domain package
// but core/session (and the ground), except one whose types or constants
// they render (its functions and variables TestSkinCallsNoDomain keeps
// out), and the named, shrinking list.
func TestSkinImports(t *testing.T) {
	uses := skinUses(t)
	for p, deps := range graph(t, filepath.Join("..", "..", "..")) {
		if !isSkin(p) {
			continue
		}
		for _, d := range deps {
			if !skinMay(d) && !uses[p].renders[d] && !slices.Contains(stillToMove[p], d) {
				t.Errorf("skin %s imports %s and uses none of its types: a skin calls core/session and renders its document; move what it needs behind a session method", p, d)
			}
		}
	}
}

// TestStillToMoveShrinks: every entry of stillToMove is an import the code
// still has for calls only, so the list cannot keep a moved import allowed.
func TestStillToMoveShrinks(t *testing.T) {
	g := graph(t, filepath.Join("..", "..", ".."))
	uses := skinUses(t)
	for p, deps := range stillToMove {
		if !isSkin(p) {
			t.Errorf("stillToMove names %s, which is not a skin: remove it", p)
		}
		for _, d := range deps {
			if !slices.Contains(g[p], d) {
				t.Errorf("%s no longer imports %s: remove it from stillToMove in core/internal/archtest/skins_test.go and run scripts/gen-architecture.sh", p, d)
			}
			if skinMay(d) || uses[p].renders[d] {
				t.Errorf("stillToMove lists %s -> %s, which the rule allows anyway (it names a type of it): remove it", p, d)
			}
		}
	}
}

// stillToMoveDoc is the list for docs/architecture.md.
func stillToMoveDoc() string {
	var b strings.Builder
	b.WriteString("\n## Still to move\n\n")
	b.WriteString("A skin imports only `core/session`, other skins and the ground, and of a domain package only the types it renders (their fields and methods) and its constants; a test fails on any other import, and one type-checks the skins and fails on every use of a domain function or package variable, with no exceptions. What the code still has (issue 34) is allowed by name; a test fails when one goes and the list still names it, so the list only shrinks.\n\n")
	b.WriteString("Imports a skin uses for calls only:\n\n")
	for _, p := range sortedKeys(stillToMove) {
		if len(stillToMove[p]) > 0 {
			fmt.Fprintf(&b, "- `%s` → `%s`\n", p, strings.Join(stillToMove[p], "`, `"))
		}
	}
	return b.String()
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
