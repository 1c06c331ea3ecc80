package apply

import (
	"slices"

	"github.com/agentkit/charter/core"
)

// govRemoval adds to targets (PlanRemoval's, already planned) the taking
// out of every permission and server entry the level's record names, and
// the record itself (SPEC §16). An entry the user changed since is theirs
// and stays (Kept). record is the scope's projection.json at user level:
// the governance record lives beside it. Only the targets that change are
// returned, each planned.
func govRemoval(sys *core.System, proj *core.Project, record string, targets []Target) ([]Target, *govBook, error) {
	path, root, level := sys.Paths.Join(sys.Paths.Dir(record), "governance.json"), "", LevelUser
	if proj != nil {
		path, root, level = sys.Paths.Join(proj.Dir, GovLockFile), proj.Dir, LevelProject
	}
	book, err := readGovBook(sys, path, root, level)
	if err != nil {
		return nil, nil, err
	}
	if _, err := sys.Fs.Stat(path); err != nil && len(book.prev) == 0 {
		return targets, book, nil // no record: nothing of this kind to take out
	}
	var files []*govFile
	for p, es := range book.prev {
		f := &govFile{path: p, agent: es[0].Agent, level: level, format: recordFormat(p, es), servers: map[string]any{},
			jsonc: recordJSONC(sys, es[0].Agent, p)}
		for _, e := range es {
			if k := serverKey(e.Key); k != nil {
				f.serverKeys = k
			}
		}
		files = append(files, f)
	}
	merged := map[string]bool{}
	for _, f := range files {
		merged[f.path] = slices.ContainsFunc(targets, func(t Target) bool { return t.Path == f.path })
	}
	all := addGovTargets(slices.Clone(targets), files, book)
	if proj != nil {
		confineProject(sys, root, all)
	}
	var out []Target
	for i := range all {
		t := &all[i]
		if i < len(targets) && !merged[t.Path] {
			out = append(out, *t) // PlanRemoval's, planned already
			continue
		}
		if err := t.plan(sys, false); err != nil {
			return nil, nil, err
		}
		if !t.current {
			out = append(out, *t)
		}
	}
	return out, book, nil
}

// serverKey is the keys of a record entry's servers, nil when the entry
// is not a server.
func serverKey(key string) []string {
	switch key {
	case "mcpServers", "servers", "mcp_servers", "mcp", "amp.mcpServers", "context_servers", "extensions":
		return []string{key}
	}
	return nil
}
