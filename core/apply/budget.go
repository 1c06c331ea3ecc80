package apply

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/agents"
	"github.com/agentkit/charter/core/projection"
)

// budgets measures, per agent, the bytes it loads in every session. In a
// project that is every file it reads at start (SPEC §12: its own and the
// other agents' it reads, each file once) as apply leaves them: the
// instruction files whole, the files their imports bring, and the
// always-on rule files charter projects into the folders it reads. At
// user level it is the agent's instruction file plus its always-on rule
// files.
func budgets(sys *core.System, sel []agents.Agent, targets []Target, always map[string]int, proj *core.Project, where map[string]placement, files []projection.Placed) []Budget {
	if proj == nil {
		return userBudgets(sys, sel, targets, always, files)
	}
	root := proj.Dir
	rel := func(p string) string {
		r, _ := strings.CutPrefix(strings.ReplaceAll(p, "\\", "/"), strings.ReplaceAll(root, "\\", "/")+"/")
		return r
	}
	byPath := map[string]Target{}
	for _, t := range targets {
		if t.block != nil || t.edit != nil {
			byPath[rel(t.Path)] = t
		}
	}
	same := sameFiles(sys, root, sel)
	out := make([]Budget, 0, len(sel))
	for _, a := range sel {
		b := Budget{Agent: a.Name, Limit: a.Limit, Files: []string{}}
		seen := map[string]bool{}
		add := func(r string, n int) {
			b.reads = append(b.reads, r)
			if seen[same(r)] {
				return
			}
			seen[same(r)] = true
			b.Bytes += n
			b.Files = append(b.Files, r)
		}
		for _, rd := range readsOf(a) {
			if strings.HasSuffix(rd.Path, "/") {
				for _, f := range files {
					if r := rel(f.Path); f.Always && strings.HasPrefix(r, rd.Path) {
						add(r, len(f.Data))
					}
				}
				for r, t := range byPath {
					if strings.HasPrefix(r, rd.Path) && !t.isHook {
						if n, ok := finalSize(sys, t); ok {
							add(r, n)
						}
					}
				}
				continue
			}
			n, ok := sizeAfter(sys, root, rd.Path, byPath)
			if !ok {
				b.reads = append(b.reads, rd.Path) // a link apply's write brings to life
				continue
			}
			add(rd.Path, n)
			if !rd.Imports {
				continue
			}
			for _, pl := range where {
				if pl.via != "" && same(pl.file) == same(rd.Path) {
					if n, ok := sizeAfter(sys, root, pl.via, byPath); ok {
						add(pl.via, n)
					}
				}
			}
		}
		out = append(out, b)
	}
	return out
}

// sizeAfter is the size of the project file rel once apply has run, and
// whether it will exist.
func sizeAfter(sys *core.System, root, rel string, byPath map[string]Target) (int, bool) {
	if t, ok := byPath[rel]; ok {
		return finalSize(sys, t)
	}
	f, err := sys.OpenWithin(root, projectFile(sys, root, rel), 0)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, false
	}
	return int(fi.Size()), true
}

// finalSize is the size of t's file once Run has written it, and whether
// it will exist then. An instruction file is scanned, never held whole.
func finalSize(sys *core.System, t Target) (int, bool) {
	if t.New != nil {
		return len(t.New), true
	}
	if t.block != nil {
		f, err := t.open(sys)
		if errors.Is(err, fs.ErrNotExist) {
			return len(t.block), true
		}
		if err != nil {
			return 0, false
		}
		defer f.Close()
		sc, err := scanBlock(t.Path, f, nil)
		switch {
		case err != nil:
			return 0, false
		case sc.found:
			return sc.size - (sc.blk.end - sc.blk.start) + len(t.block), true
		}
		return sc.size + len(sc.gap()) + len(t.block), true
	}
	old, err := t.read(sys)
	if err != nil {
		return 0, false
	}
	parts, err := t.edit(old)
	if err != nil || parts == nil {
		return 0, false
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	return n, true
}

// userBudgets measures, per agent, its instruction file as apply leaves
// it plus the projected files it loads in every session (always, by agent).
func userBudgets(sys *core.System, sel []agents.Agent, targets []Target, always map[string]int, files []projection.Placed) []Budget {
	out := make([]Budget, 0, len(sel))
	for _, a := range sel {
		b := Budget{Agent: a.Name, Bytes: always[a.Name], Limit: a.Limit}
		for _, t := range targets {
			if t.Agent != a.Name || t.isHook || (t.block == nil && t.edit == nil) {
				continue
			}
			if n, ok := finalSize(sys, t); ok {
				b.Bytes += n
				b.Files = append(b.Files, t.Path)
			}
			b.reads = append(b.reads, t.Path)
			break
		}
		for _, f := range files {
			if f.Agent == a.Name && f.Always {
				b.Files = append(b.Files, f.Path)
				b.reads = append(b.reads, f.Path)
			}
		}
		out = append(out, b)
	}
	return out
}

// measured is budgets counted again from the files on disk once a run has
// written them: a planned size can differ from the file's (a file charter
// did not write, a link that leads to a file only the run created), and
// the figure apply prints must be the one the agent loads. The files are
// those the plan looked at (reads), relative to root in a project, whole
// at user level (root ""); each file counts once, a missing one not at all.
func measured(sys *core.System, root string, in []Budget) []Budget {
	out := make([]Budget, len(in))
	for i, b := range in {
		m := Budget{Agent: b.Agent, Limit: b.Limit}
		var seen []fs.FileInfo
		for i, name := range b.reads {
			if slices.Contains(b.reads[:i], name) {
				continue
			}
			path := name
			if root != "" {
				path = projectFile(sys, root, name)
			}
			fi, ok := statWithin(sys, root, path)
			if !ok || slices.ContainsFunc(seen, func(s fs.FileInfo) bool { return os.SameFile(s, fi) }) {
				continue
			}
			seen = append(seen, fi)
			m.Bytes += int(fi.Size())
			m.Files = append(m.Files, name)
		}
		out[i] = m
	}
	return out
}

// statWithin is the file at path as the agent finds it (confined to root
// in a project), and whether it is there.
func statWithin(sys *core.System, root, path string) (fs.FileInfo, bool) {
	f, err := sys.OpenWithin(root, path, 0)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	return fi, err == nil
}
