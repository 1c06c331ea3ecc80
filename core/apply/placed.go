package apply

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/projection"
)

// placeProject decides where each selected agent's block and rules go in
// the project at root. The agents charter placed there before (the lock
// names them, or their files hold its block) count as they are: an apply
// for one agent moves only that agent's files, so that, with the others'
// files as they lie, each agent reads each item once. It returns the
// placement of every agent counted, which the lock records.
func placeProject(sys *core.System, sel []agents.Agent, root string, c *Content) (map[string]placement, func(string) string, []string) {
	var all []agents.Agent
	fixed := map[string]placement{}
	recorded := recordedAgents(sys, root)
	// A file several agents read as their own (AGENTS.md) says only that
	// the first of them in the table is here.
	seen := map[string]bool{}
	for _, a := range sys.AgentTable.All() {
		if a.ProjectFile == "" {
			continue
		}
		here := false
		for _, rel := range candidates(a) {
			if !seen[rel] {
				seen[rel] = true
				here = here || holdsMarker(sys, root, projectFile(sys, root, rel))
			}
		}
		switch {
		case slices.ContainsFunc(sel, func(s agents.Agent) bool { return s.Name == a.Name }):
		case recorded[a.Name] || here:
			fixed[a.Name] = placedAs(sys, root, a)
		default:
			continue
		}
		all = append(all, a)
	}
	same := sameFiles(sys, root, all)
	var items []content.Item
	if c != nil {
		items = c.Items
	}
	names := make([]string, 0, len(all))
	for _, a := range all {
		names = append(names, a.Name)
	}
	slices.Sort(names)
	return place(all, items, same, fixed), same, names
}

// placedAs is where a's block lies in the project now.
func placedAs(sys *core.System, root string, a agents.Agent) placement {
	opts := placements(a)
	for _, p := range opts[1 : len(opts)-1] {
		at := p.file
		if p.via != "" {
			at = p.via
		}
		if at != a.ProjectFile && holdsMarker(sys, root, projectFile(sys, root, at)) {
			return p
		}
	}
	if holdsMarker(sys, root, projectFile(sys, root, a.ProjectFile)) {
		return opts[0]
	}
	return opts[len(opts)-1]
}

// recordedAgents are the agents the project's lock records files for: an
// agent served by others' files has no block of its own, but its skills
// and commands say it is there.
func recordedAgents(sys *core.System, root string) map[string]bool {
	out := map[string]bool{}
	rec, err := projection.ReadRecord(sys, projectFile(sys, root, ".charter/projection.lock"), root)
	if err != nil {
		return out
	}
	for _, e := range rec.Files {
		out[e.Agent] = true
	}
	for _, n := range rec.Agents {
		out[n] = true
	}
	return out
}

// candidates are the files an agent's block may be in, project-relative.
func candidates(a agents.Agent) []string {
	var out []string
	for _, p := range []string{a.ProjectFile, a.Private, a.Via} {
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func projectFile(sys *core.System, root, rel string) string {
	return sys.Paths.Join(append([]string{root}, strings.Split(rel, "/")...)...)
}

// holdsMarker reports whether the file at p (inside root) holds charter's
// begin marker. A file that cannot be read holds none: the plan's own
// reads name what is wrong with it.
func holdsMarker(sys *core.System, root, p string) bool {
	f, err := sys.OpenWithin(root, p, fsys.KindInstructions)
	if err != nil {
		return false
	}
	defer f.Close()
	sc, err := scanBlock(p, f, nil)
	return err == nil && sc.found
}

// sameFiles maps each agent's candidate files to the first of them that is
// the same file (a link between two instruction files is one file).
func sameFiles(sys *core.System, root string, chosen []agents.Agent) func(string) string {
	var rels []string
	var places []fsys.Place
	canon := map[string]string{}
	for _, a := range chosen {
		for _, rel := range candidates(a) {
			if _, ok := canon[rel]; ok {
				continue
			}
			canon[rel] = rel
			p, ok, err := sys.Files.Locate(projectFile(sys, root, rel))
			if err != nil || !ok {
				continue
			}
			for i, q := range places {
				if q.Same(p) {
					canon[rel] = rels[i]
					break
				}
			}
			rels, places = append(rels, rel), append(places, p)
		}
	}
	return func(rel string) string {
		if c, ok := canon[rel]; ok {
			return c
		}
		return rel
	}
}

// servedBy names the files that serve agent a, which gets none of its
// own, for the report.
func servedBy(a agents.Agent, chosen []agents.Agent, where map[string]placement, same func(string) string) string {
	var pick []placement
	var sel []agents.Agent
	for _, s := range chosen {
		if p, ok := where[s.Name]; ok {
			sel, pick = append(sel, s), append(pick, p)
		}
	}
	var names []string
	cs, _ := carriers(sel, pick, nil, same)
	for _, c := range cs {
		if reads(a, c, same) {
			names = append(names, c.path)
		}
	}
	return fmt.Sprintf("%s reads charter's block and rules in %s: charter writes none of its own, so that it gets each item once",
		a.Name, strings.Join(names, ", "))
}

// importBlock is the block of a file that only imports the one holding
// charter's block (GEMINI.md's `@.gemini/charter.md`): one line the agent
// expands, and that an agent reading the file as text skips.
func importBlock(file, via string) []byte {
	rel := strings.TrimPrefix(via, path.Dir(file)+"/")
	return []byte(BeginMarker + "\n@" + rel + "\n" + EndMarker + "\n")
}

// unplaced are the targets that take charter's block out of a's files it
// no longer uses, where they hold one. A file that is the same as one a
// placement writes is left to that placement.
func unplaced(sys *core.System, root string, a agents.Agent, pl placement, chosen map[string]bool, same func(string) string) []Target {
	var out []Target
	for _, rel := range candidates(a) {
		if chosen[same(rel)] {
			continue
		}
		p := projectFile(sys, root, rel)
		if !holdsMarker(sys, root, p) {
			continue
		}
		owned := rel == a.Via || a.Format == agents.FormatRules
		out = append(out, Target{Agent: a.Name, Level: LevelProject, Path: p, unplace: true,
			edit: func(old []byte) ([][]byte, error) { return withoutBlock(p, old, owned) }})
	}
	return out
}

// chosenFiles are the files the placements write a block into.
func chosenFiles(where map[string]placement, same func(string) string) map[string]bool {
	out := map[string]bool{}
	for _, pl := range where {
		if pl.served() {
			continue
		}
		out[same(pl.file)] = true
		if pl.via != "" {
			out[same(pl.via)] = true
		}
	}
	return out
}

// withoutBlock is old with charter's block taken out; nil (no file) when
// nothing else is left, or, for a file charter owns whole, at once.
func withoutBlock(p string, old []byte, owned bool) ([][]byte, error) {
	if old == nil {
		return nil, nil
	}
	sc, err := scanBlock(p, bytes.NewReader(old), nil)
	if err != nil || !sc.found {
		return whole(old), err
	}
	if owned {
		return nil, nil
	}
	before := bytes.TrimRight(old[:sc.blk.start], "\n")
	after := bytes.TrimLeft(old[sc.blk.end:], "\n")
	switch {
	case len(bytes.TrimSpace(before)) == 0 && len(bytes.TrimSpace(after)) == 0:
		return nil, nil
	case len(after) == 0:
		return [][]byte{before, []byte("\n")}, nil
	case len(before) == 0:
		return [][]byte{after}, nil
	}
	return [][]byte{before, []byte("\n\n"), after}, nil
}

// dropEmptied deletes the file an unplace target emptied: it held nothing
// but charter's block.
func dropEmptied(sys *core.System, t Target, opts fsys.WriteOptions) error {
	if err := sys.RemoveFile(t.Path, opts); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// servedNatives are the native rule files import took over (adopt) of an
// agent whose rules go elsewhere: other agents' files serve it (Cursor
// beside Codex: AGENTS.md carries every rule, and Cursor reads it), or its
// block holds them written out. It gets those rules there, so its natives
// go, or it would read each twice. Import kept their bytes: uninstall puts
// them back.
func servedNatives(sys *core.System, sel []agents.Agent, where map[string]placement, root string, adopt map[string]bool) []projection.Placed {
	var out []projection.Placed
	for _, a := range sel {
		if pl, ok := where[a.Name]; !ok || !(pl.served() || pl.inline) {
			continue
		}
		place := a.At(content.LevelProject).Rules
		if place.Dir == "" {
			continue
		}
		dir := projectFile(sys, root, strings.TrimSuffix(place.Dir, "/"))
		for p := range adopt {
			rel, ok := sys.Paths.Within(dir, p)
			if !ok || len(rel) != 1 || !strings.HasSuffix(rel[0], place.Ext) {
				continue
			}
			f := projection.File{Agent: a.Name, Kind: content.KindRule, Item: strings.TrimSuffix(rel[0], place.Ext)}
			out = append(out, projection.Placed{File: f, Path: p})
		}
	}
	slices.SortFunc(out, func(x, y projection.Placed) int { return strings.Compare(x.Path, y.Path) })
	return out
}

// withServers adds to sel the agents placed before whose files serve a
// selected one: an import for Cursor beside Codex's AGENTS.md writes that
// file too, since Cursor reads its new rules there.
func withServers(sys *core.System, sel []agents.Agent, where map[string]placement, same func(string) string) []agents.Agent {
	var pick []placement
	var all []agents.Agent
	for _, a := range sys.AgentTable.All() {
		if p, ok := where[a.Name]; ok {
			all, pick = append(all, a), append(pick, p)
		}
	}
	cs, _ := carriers(all, pick, nil, same)
	add := map[string]bool{}
	for _, a := range sel {
		if !where[a.Name].served() {
			continue
		}
		for _, c := range cs {
			if reads(a, c, same) {
				add[c.agent] = true
			}
		}
	}
	var out []agents.Agent
	for _, a := range all {
		if add[a.Name] || slices.ContainsFunc(sel, func(s agents.Agent) bool { return s.Name == a.Name }) {
			out = append(out, a)
		}
	}
	return out
}
