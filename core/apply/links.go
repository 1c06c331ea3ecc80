package apply

import (
	"os"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/projection"
)

// A link inside the project is followed only to a file charter itself
// edits at that level (SPEC §12 decisions of 2026-11-27): an instruction
// file may lead to another agent's instruction file (CLAUDE.md ->
// AGENTS.md, one file with one block read by both), never elsewhere; the
// JSON files charter edits are never written through a link. The
// repository's git folder is refused by every walk (fsys/repo.go).

// instructionFiles are the project instruction files of every agent that
// keeps charter's block in one, relative to the project root.
func instructionFiles(sys *core.System) []string {
	var out []string
	for _, a := range sys.AgentTable.All() {
		if a.Format == agents.FormatBlock && a.ProjectFile != "" {
			out = append(out, a.ProjectFile)
		}
	}
	return out
}

// writeOptions are the options every read check and write of t uses.
func (t *Target) writeOptions(confirm bool) fsys.WriteOptions {
	mode := os.FileMode(0o644)
	if t.private {
		mode = 0o600 // charter's own file under the config root (SPEC §9)
	}
	return fsys.WriteOptions{ConfirmShared: confirm, NewMode: mode, Kind: t.kind, Within: t.within,
		Whole: t.within != "" && t.linkTo == nil, LinkTo: t.linkTo}
}

// confineProject marks the project targets: each instruction file may lead
// to another one, any other file to none. Instruction files that are one
// file (a link between them) get one block: the one of the agent whose
// rules the block carries, so the agent that reads only the block misses
// nothing.
func confineProject(sys *core.System, root string, targets []Target) {
	links := instructionFiles(sys)
	var places []fsys.Place
	var idx []int
	for i := range targets {
		t := &targets[i]
		t.within = root
		if t.block == nil {
			continue
		}
		t.linkTo = links
		p, ok, err := sys.Files.Locate(t.Path)
		if err != nil || !ok {
			continue // plan's own walk names what is wrong
		}
		for j, q := range places {
			if q.Same(p) {
				share(sys, &targets[idx[j]], t)
				p = fsys.Place{}
				break
			}
		}
		if p.Valid() {
			places, idx = append(places, p), append(idx, i)
		}
	}
}

// share gives a and b, one file, the same block.
func share(sys *core.System, a, b *Target) {
	from := a
	inBlock := func(t *Target) bool {
		ag, _ := sys.AgentTable.Lookup(t.Agent)
		_, in := projection.Layout(ag, content.LevelProject, content.KindRule)
		return in
	}
	if inBlock(b) && !inBlock(a) {
		from = b
	}
	a.block, a.edit = from.block, from.edit
	b.block, b.edit = from.block, from.edit
}
