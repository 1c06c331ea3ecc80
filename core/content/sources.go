package content

import (
	"io/fs"
	"slices"
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
func Load(sys *core.System, sc core.Scope, project *core.Project, policyPath string) (*Library, error) {
	return LoadLayers(sys, Sources(sys, sc, project, policyPath))
}

// LoadLayers reads every item of layers, each file once. A malformed
// source is a *MalformedError listing every problem with file and line; a
// file that cannot be read (a link out of the project, a file over the
// cap, a named pipe) is that error.
func LoadLayers(sys *core.System, layers []Layer) (*Library, error) {
	l := &loader{sys: sys, agents: sys.AgentNames()}
	defer l.close()
	for _, ly := range layers {
		for _, k := range Kinds() {
			if err := l.kind(ly, k); err != nil {
				return nil, err
			}
		}
	}
	if err := malformed(l.problems); err != nil {
		return nil, err
	}
	return &Library{Layers: layers, Items: l.items}, nil
}

type loader struct {
	sys      *core.System
	agents   []string
	problems []Problem
	items    []*Item
	readers  map[string]*core.Reader // by project root: each folder walked once
}

func (l *loader) reader(root string) *core.Reader {
	r := l.readers[root]
	if r == nil {
		if l.readers == nil {
			l.readers = map[string]*core.Reader{}
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
	p := parser{path: path}
	p.add(0, format, args...)
	l.problems = append(l.problems, p.problems...)
}

// list returns a folder's entries (not following links in them), sorted;
// nil when it does not exist. A folder a repository chose must resolve
// inside the project.
func (l *loader) list(ly Layer, dir string) ([]fs.FileInfo, error) {
	entries, notDir, err := l.reader(ly.Within).List(dir)
	if notDir {
		l.bad(dir, "is not a folder: charter reads items from a folder of this name")
	}
	return entries, err
}

// read reads one source file: confined to the project for a repository's.
func (l *loader) read(ly Layer, path string) ([]byte, error) {
	if ly.Within != "" {
		data, err := l.reader(ly.Within).Read(path, fsys.KindContent)
		if data == nil && err == nil {
			data = []byte{} // removed since it was listed: as empty
		}
		return data, err
	}
	data, err := l.sys.ReadFile(path, fsys.KindContent)
	if err != nil {
		return nil, core.ReadError(path, err)
	}
	return data, nil
}

func (l *loader) kind(ly Layer, k Kind) error {
	dir := l.sys.Paths.Join(ly.Dir, k.Dir())
	entries, err := l.list(ly, dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		path := l.sys.Paths.Join(dir, name)
		if k == KindSkill {
			if err := l.skill(ly, path, name, e); err != nil {
				return err
			}
			continue
		}
		stem, isMD := strings.CutSuffix(name, ".md")
		if e.IsDir() || !isMD {
			l.bad(path, "is not a %s: %s/ holds one NAME.md file per %s", k, k.Dir(), k)
			continue
		}
		if msg := CheckName(stem); msg != "" {
			l.bad(path, "%s", msg)
			continue
		}
		data, err := l.read(ly, path)
		if err != nil {
			return err
		}
		l.add(ly, k, stem, path, data, nil)
	}
	return nil
}

func (l *loader) add(ly Layer, k Kind, name, path string, data []byte, files []File) {
	it, ps := Parse(k, name, path, data, l.agents)
	if len(ps) > 0 {
		l.problems = append(l.problems, ps...)
		return
	}
	it.Layer, it.Level, it.Files = ly.Name, ly.Level, files
	l.items = append(l.items, it)
}

// skill reads a skill's folder whole: SKILL.md and every other file, kept
// as they are. A link inside the folder is an error: a skill is copied to
// the agents, and a link would carry whatever it points at with it.
func (l *loader) skill(ly Layer, dir, name string, e fs.FileInfo) error {
	if e.Mode()&fs.ModeSymlink != 0 {
		fi, err := l.sys.Fs.Stat(dir)
		if err == nil {
			e = fi
		}
	}
	if !e.IsDir() {
		l.bad(dir, "is not a skill: skills/ holds one folder per skill, with a SKILL.md in it")
		return nil
	}
	if msg := CheckName(name); msg != "" {
		l.bad(dir, "%s", msg)
		return nil
	}
	var files []File
	var skill []byte
	var walk func(rel string) error
	walk = func(rel string) error {
		entries, err := l.list(ly, l.sys.Paths.Join(dir, rel))
		if err != nil {
			return err
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			r := e.Name()
			if rel != "" {
				r = rel + "/" + r
			}
			path := l.sys.Paths.Join(dir, r)
			switch m := e.Mode(); {
			case m&fs.ModeSymlink != 0:
				l.bad(path, "is a link inside a skill folder: a skill is copied whole, so put the file itself there")
			case m.IsDir():
				if err := walk(r); err != nil {
					return err
				}
			case !m.IsRegular():
				l.bad(path, "is %s: a skill folder holds only files and folders", fsys.Describe(m))
			default:
				data, err := l.read(ly, path)
				if err != nil {
					return err
				}
				if r == SkillFile {
					skill = data
				} else {
					files = append(files, File{Rel: r, Data: data, Exec: m&0o111 != 0})
				}
			}
		}
		return nil
	}
	before := len(l.problems)
	if err := walk(""); err != nil {
		return err
	}
	switch {
	case len(l.problems) > before:
	case skill == nil:
		l.bad(dir, "has no %s: a skill folder holds its %s with name and description", SkillFile, SkillFile)
	default:
		slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Rel, b.Rel) })
		l.add(ly, KindSkill, name, l.sys.Paths.Join(dir, SkillFile), skill, files)
	}
	return nil
}

// ReadSkill reads one skill folder whole, as Load does, for a folder that
// is not a layer's (an agent's native skill, for import): the item, or
// the problems that make it no item. within confines a repository's
// folder; e is the folder's entry as listed (a link is followed once).
func ReadSkill(sys *core.System, within, dir string, e fs.FileInfo) (*Item, []Problem, error) {
	l := &loader{sys: sys, agents: sys.AgentNames()}
	defer l.close()
	if err := l.skill(Layer{Within: within}, dir, e.Name(), e); err != nil {
		return nil, nil, err
	}
	if len(l.problems) > 0 {
		return nil, l.problems, nil
	}
	return l.items[0], nil, nil
}
