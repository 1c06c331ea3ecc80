package apply

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// TestServedNatives: import's taken-over rule files go only for an agent
// whose rules are written elsewhere (served, or written out in its block),
// and only those in its rules folder with its extension.
func TestServedNatives(t *testing.T) {
	m := coretest.New(t)
	root := filepath.Join(m.Dir, "repo")
	mdc := filepath.Join(root, ".cursor", "rules", "py.mdc")
	adopt := map[string]bool{
		mdc: true,
		filepath.Join(root, ".cursor", "rules", "notes.txt"):                true, // not a rule file
		filepath.Join(root, ".cursor", "rules", "sub", "x.mdc"):             true, // not directly in the folder
		filepath.Join(root, ".claude", "rules", "style.md"):                 true, // Claude keeps its own
		filepath.Join(root, ".github", "instructions", "a.instructions.md"): true,
	}
	sel := pickAgents(t, "claude", "cursor")
	served := map[string]placement{"claude": placements(sel[0])[0], "cursor": {serve: true}}
	got := servedNatives(m.Sys, sel, served, root, adopt)
	if len(got) != 1 || got[0].Path != mdc || got[0].Item != "py" || got[0].Agent != "cursor" {
		t.Fatalf("served Cursor: got %+v, want only %s (rule py)", got, mdc)
	}
	own := map[string]placement{"claude": placements(sel[0])[0], "cursor": placements(sel[1])[0]}
	if got := servedNatives(m.Sys, sel, own, root, adopt); len(got) != 0 {
		t.Fatalf("Cursor in its own files: got %+v, want none dropped", got)
	}
}

// TestWithServers: an import for an agent served by another agent's file
// plans that agent too; one in its own files adds nobody.
func TestWithServers(t *testing.T) {
	m := coretest.New(t)
	same := func(p string) string { return p }
	codex, cursor := pickAgents(t, "codex")[0], pickAgents(t, "cursor")[0]
	where := map[string]placement{"codex": placements(codex)[0], "cursor": {serve: true}}
	var got []string
	for _, a := range withServers(m.Sys, pickAgents(t, "cursor"), where, same) {
		got = append(got, a.Name)
	}
	if !slices.Equal(got, []string{"codex", "cursor"}) {
		t.Fatalf("Cursor served by AGENTS.md: planned %v, want codex and cursor", got)
	}
	where["cursor"] = placements(cursor)[0]
	got = nil
	for _, a := range withServers(m.Sys, pickAgents(t, "cursor"), where, same) {
		got = append(got, a.Name)
	}
	if !slices.Equal(got, []string{"cursor"}) {
		t.Fatalf("Cursor in its own files: planned %v, want cursor alone", got)
	}
}
