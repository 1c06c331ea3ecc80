package archtest

import (
	"path/filepath"
	"testing"
)

func isSkin(p string) bool { return layers[layerOf(p)].name == "skins" }

// skinMay is what a skin may import: core/session, another skin, the
// ground (core/fsys, core/errcode, core/inert, helpers/*).
func skinMay(dep string) bool {
	return dep == "core/session" || isSkin(dep) || ground(dep)
}

// TestSkinImports: commands, server and mcpserver import no domain package
// but core/session (and the ground), except one whose types or constants
// they render (its functions and variables TestSkinCallsNoDomain keeps
// out). No exceptions are left.
func TestSkinImports(t *testing.T) {
	uses := skinUses(t)
	for p, deps := range graph(t, filepath.Join("..", "..", "..")) {
		if !isSkin(p) {
			continue
		}
		for _, d := range deps {
			if !skinMay(d) && !uses[p].renders[d] {
				t.Errorf("skin %s imports %s and uses none of its types: a skin calls core/session and renders its document; move what it needs behind a session method", p, d)
			}
		}
	}
}
