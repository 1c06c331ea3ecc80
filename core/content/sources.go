package content

import (
	"cmp"
	"context"
	"io/fs"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/settings"
)

// Layer is one settings layer's source folder (SPEC §12 "Sources").
type Layer struct {
	Name  string `json:"name"`  // global, scope, project or policy (settings' layer names)
	Dir   string `json:"path"`  // the folder that holds rules/, skills/, commands/, subagents/
	Level string `json:"level"` // user or project; policy items reach both
	// Within is the project root a repository's sources must stay inside
	// (code outside_project); "" for the user's and the administrator's.
	Within string `json:"-"`
	// Source is the shared source whose pinned tree Dir holds (SPEC §15);
	// its layer sits just below the one that declares it, with that
	// layer's Name and Level.
	Source *SourceRef `json:"source,omitempty"`
}

// SkillFile is a skill's source file in its folder.
const SkillFile = "SKILL.md"

// Sources lists the source folders of a run, lowest first: global (the
// root's, only under a profile of the default root, as settings' global
// layer), scope, the project's .charter/ (project nil: none) and the
// folder holding the policy file, whether or not the file exists
// (policyPath "": none).
func Sources(sys *core.System, sc core.Scope, project *core.Project, policyPath string) []Layer {
	var ls []Layer
	if sc.Kind == core.ScopeProfile {
		ls = append(ls, Layer{Name: settings.LayerGlobal, Dir: sc.Root.Path, Level: LevelUser})
	}
	ls = append(ls, Layer{Name: settings.LayerScope, Dir: sc.Path, Level: LevelUser})
	if project != nil {
		ls = append(ls, Layer{Name: settings.LayerProject, Dir: sys.Paths.Join(project.Dir, core.ProjectDirName),
			Level: LevelProject, Within: project.Dir})
	}
	if policyPath != "" {
		ls = append(ls, Layer{Name: settings.LayerPolicy, Dir: sys.Paths.Dir(policyPath), Level: LevelUser})
	}
	return ls
}

// Library is every item of every source folder, with its origin.
type Library struct {
	Layers []Layer
	Items  []*Item // lowest layer first; within a layer by kind, then name
}

// Load reads the library of a run: Sources, then LoadLayers.
func Load(ctx context.Context, sys *core.System, sc core.Scope, project *core.Project, policyPath string) (*Library, error) {
	return LoadLayers(ctx, sys, Sources(sys, sc, project, policyPath))
}

// LoadNames is Load without the bytes of a skill's other files (their
// File.Data is nil): what lists and shows need. The caps are checked as
// Load checks them, so a library Load refuses is refused here too.
func LoadNames(ctx context.Context, sys *core.System, sc core.Scope, project *core.Project, policyPath string) (*Library, error) {
	return loadLayers(ctx, sys, Sources(sys, sc, project, policyPath), true)
}

// LoadLayers reads every item of layers, each file once. A malformed
// source is a *MalformedError listing every problem with file and line; a
// file that cannot be read (a link out of the project, a file over the
// cap, a named pipe) is that error, and so is a skill folder or a library
// over its caps (caps.go), found before anything is read. A cancelled ctx
// stops it between items and files with ctx's error.
func LoadLayers(ctx context.Context, sys *core.System, layers []Layer) (*Library, error) {
	return loadLayers(ctx, sys, layers, false)
}

// LoadLayerNames is LoadLayers as LoadNames reads.
func LoadLayerNames(ctx context.Context, sys *core.System, layers []Layer) (*Library, error) {
	return loadLayers(ctx, sys, layers, true)
}

func loadLayers(ctx context.Context, sys *core.System, layers []Layer, names bool) (*Library, error) {
	l := &loader{ctx: ctx, sys: sys, agents: sys.AgentTable.Names(), names: names}
	defer l.close()
	for _, ly := range layers {
		for _, k := range Kinds() {
			if err := l.kind(ly, k); err != nil {
				return nil, err
			}
		}
	}
	if err := cmp.Or(l.finish(), ctx.Err()); err != nil { // cancelled while reading
		return nil, err
	}
	if err := malformed(l.problems); err != nil {
		return nil, err
	}
	return &Library{Layers: layers, Items: l.items}, nil
}

// A loader lists the folders first (a kind's folder, then its skill
// folders from a few goroutines, skills) and keeps what it finds in
// order: problems, and jobs (an item's files to read and parse).
// finish then reads every file and parses every item from a few goroutines
// at once, and collects items and problems in the order they were found.
type loader struct {
	ctx      context.Context // checked per item (add) and per file read
	sys      *core.System
	agents   []string
	slots    []slot
	problems []Problem
	items    []*Item
	readers  map[string]*fsys.Reader // by project root: each folder walked once
	names    bool                    // a skill's other files are listed, not read
	total    tally                   // every job's files, for the library's caps
}

type slot struct {
	problems []Problem
	job      *job
}

// job is one item: its source file (a skill's SKILL.md) and a skill's
// other files, with where each is.
type job struct {
	ly       Layer
	kind     Kind
	name     string
	path     string
	data     []byte
	files    []File
	paths    []string // of files
	item     *Item
	problems []Problem
}

func (l *loader) reader(root string) *fsys.Reader {
	r := l.readers[root]
	if r == nil {
		if l.readers == nil {
			l.readers = map[string]*fsys.Reader{}
		}
		r = l.sys.Reader(root)
		l.readers[root] = r
	}
	return r
}

func (l *loader) close() {
	for _, r := range l.readers {
		r.Close()
	}
}

func (l *loader) bad(path, format string, args ...any) {
	l.slots = append(l.slots, problem(path, format, args...))
}

// problem is the slot of one problem with the file or folder at path.
func problem(path, format string, args ...any) slot {
	p := parser{path: path}
	p.add(0, format, args...)
	return slot{problems: p.problems}
}

// list returns a folder's entries (not following links in them), sorted;
// nil when it does not exist. A folder a repository chose must resolve
// inside the project; one of more than MaxFolderEntries is refused.
func (l *loader) list(ly Layer, dir string) ([]fs.FileInfo, error) {
	return listIn(l.reader(ly.Within), dir, l.bad)
}

// listIn is list through r, its problem given to bad.
func listIn(r *fsys.Reader, dir string, bad func(path, format string, args ...any)) ([]fs.FileInfo, error) {
	entries, notDir, err := r.ListMax(dir, MaxFolderEntries)
	if notDir {
		bad(dir, "is not a folder: charter reads items from a folder of this name")
	}
	if err == nil && len(entries) > MaxFolderEntries {
		return nil, overfull(dir)
	}
	return entries, err
}

// readAll reads source files: confined to the project root for a
// repository's (root ""; the user's and the administrator's).
func (l *loader) readAll(root string, paths []string) ([][]byte, error) {
	if root != "" {
		datas, err := l.reader(root).ReadAll(paths, fsys.KindContent)
		for i := range datas {
			if datas[i] == nil {
				datas[i] = []byte{} // removed since it was listed: as empty
			}
		}
		return datas, err
	}
	datas := make([][]byte, len(paths))
	err := fsys.Parallel(len(paths), func(i int) error {
		if err := l.ctx.Err(); err != nil {
			return err
		}
		data, err := l.sys.ReadFile(paths[i], fsys.KindContent)
		if err != nil {
			return fsys.ReadError(paths[i], err)
		}
		datas[i] = data
		return nil
	})
	return datas, err
}

func (l *loader) kind(ly Layer, k Kind) error {
	dir := l.sys.Paths.Join(ly.Dir, k.Dir())
	entries, err := l.list(ly, dir)
	if err != nil {
		return err
	}
	if k == KindSkill {
		return l.skills(ly, dir, entries)
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		path := l.sys.Paths.Join(dir, name)
		stem, isMD := strings.CutSuffix(name, ".md")
		if e.IsDir() || !isMD {
			l.bad(path, "is not a %s: %s/ holds one NAME.md file per %s", k, k.Dir(), k)
			continue
		}
		if msg := CheckName(stem); msg != "" {
			l.bad(path, "%s", msg)
			continue
		}
		if err := l.add(ly, path, tally{1, l.listedSize(path, e)}); err != nil {
			return err
		}
		l.slots = append(l.slots, slot{job: &job{ly: ly, kind: k, name: stem, path: path}})
	}
	return nil
}

// finish reads and parses every job, then collects items and problems in
// the order they were found.
func (l *loader) finish() error {
	var jobs []*job
	var roots []string
	byRoot := map[string][]*[]byte{}
	pathsOf := map[string][]string{}
	for _, s := range l.slots {
		j := s.job
		if j == nil {
			continue
		}
		jobs = append(jobs, j)
		r := j.ly.Within
		if _, ok := byRoot[r]; !ok {
			roots = append(roots, r)
		}
		byRoot[r] = append(byRoot[r], &j.data)
		pathsOf[r] = append(pathsOf[r], j.path)
		for f := range j.files {
			if l.names {
				break
			}
			byRoot[r] = append(byRoot[r], &j.files[f].Data)
			pathsOf[r] = append(pathsOf[r], j.paths[f])
		}
	}
	for _, r := range roots {
		datas, err := l.readAll(r, pathsOf[r])
		if err != nil {
			return err
		}
		for i, d := range byRoot[r] {
			*d = datas[i]
		}
	}
	fsys.Parallel(len(jobs), func(i int) error {
		j := jobs[i]
		j.item, j.problems = Parse(j.kind, j.name, j.path, j.data, l.agents)
		return nil
	})
	for _, s := range l.slots {
		j := s.job
		switch {
		case j == nil:
			l.problems = append(l.problems, s.problems...)
		case len(j.problems) > 0:
			l.problems = append(l.problems, j.problems...)
		default:
			j.item.Layer, j.item.Level, j.item.Files, j.item.Source = j.ly.Name, j.ly.Level, j.files, j.ly.Source
			l.items = append(l.items, j.item)
		}
	}
	l.slots = nil
	return nil
}

// ReadSkill reads one skill folder whole, as Load does, for a folder that
// is not a layer's (an agent's native skill, for import): the item, or
// the problems that make it no item. within confines a repository's
// folder; e is the folder's entry as listed (a link is followed once).
func ReadSkill(ctx context.Context, sys *core.System, within, dir string, e fs.FileInfo) (*Item, []Problem, error) {
	l := &loader{ctx: ctx, sys: sys, agents: sys.AgentTable.Names()}
	defer l.close()
	if err := l.skill(Layer{Within: within}, dir, e.Name(), e); err != nil {
		return nil, nil, err
	}
	if err := l.finish(); err != nil {
		return nil, nil, err
	}
	if len(l.problems) > 0 {
		return nil, l.problems, nil
	}
	return l.items[0], nil, nil
}
