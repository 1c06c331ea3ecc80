// Package importer turns an agent's or a peer tool's existing files into
// charter sources (SPEC §12 "Commands", `charter import`): it finds the
// native files, converts each into the source charter would project back
// into that file, and says for each whether the projection gives the
// native file's bytes back (identical) or rewrites its frontmatter
// (converted). Writing the sources and projecting them is the session's.
package importer

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/projection"
)

// Sources lists what `--from` accepts: the agents of the table, then
// the two peer tools whose source folders it reads.
func Sources(sys *core.System) []string {
	return append(sys.AgentTable.Names(), "rulesync", "ruler")
}

// Peer reports whether from is a peer tool's source folder rather than an
// agent's native files (nothing of it is projected back into place).
func Peer(from string) bool { return from == "rulesync" || from == "ruler" }

// States of a candidate.
const (
	StateImported = "imported" // its source was written (dry run: would be)
	StateClash    = "clash"    // a source of that kind and name exists: kept
	StateSkipped  = "skipped"  // not importable: Reason says why
)

// Projections of the native file an agent's candidate came from.
const (
	Identical = "identical" // charter projects these very bytes back: recorded as they are
	Converted = "converted" // charter rewrites its frontmatter (the body stays)
	Moved     = "moved"     // charter projects it to another folder the agent also reads
)

// Request is one import.
type Request struct {
	From  string
	Level string // content.LevelUser or content.LevelProject
	// Base is where the native files are: the agent's directory at user
	// level, the project root at project level.
	Base string
	// Within is the project root when the files are a repository's: every
	// read is confined to it. "" at user level.
	Within   string
	Autoload bool // skills.autoload, for the verdict on skills
	// Recorded reports whether charter already projected a file (its own
	// output is not imported back).
	Recorded func(path string) bool
}

// Candidate is one item found.
type Candidate struct {
	Kind   content.Kind `json:"kind"`
	Name   string       `json:"name"`
	State  string       `json:"state"`
	Native string       `json:"native"`           // the native file or skill folder
	Agent  string       `json:"agent,omitempty"`  // the agent it was read for ("" for a peer's source)
	Source string       `json:"source,omitempty"` // the charter source written
	// Projection is Identical, Converted or Moved for an agent's file, ""
	// for a peer's source or a kind the agent has no place for now.
	Projection string   `json:"projection,omitempty"`
	Reason     string   `json:"reason,omitempty"`
	Notes      []string `json:"notes,omitempty"`

	Data  []byte          `json:"-"` // the source (SKILL.md for a skill)
	Files []content.File  `json:"-"` // a skill's other files
	Item  *content.Item   `json:"-"`
	Paths map[string]bool `json:"-"` // the native files projection takes over
}

func (c *Candidate) skip(format string, args ...any) {
	c.State, c.Reason = StateSkipped, fmt.Sprintf(format, args...)
}

func (c *Candidate) note(format string, args ...any) {
	c.Notes = append(c.Notes, fmt.Sprintf(format, args...))
}

// Scan finds every item req.From has at req.Level and converts it. A
// file that cannot be read safely (a link out of the project, over the
// cap) fails the scan; a file that is no valid item is skipped with why.
// A cancelled ctx stops the scan between two files with ctx's error and
// no candidates: the caller then writes nothing.
func Scan(ctx context.Context, sys *core.System, req Request) ([]Candidate, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	_, peer := spotsOf.Get()[req.From]
	a, known := sys.AgentTable.Lookup(req.From)
	if !peer && !known {
		return nil, core.Errorf(core.CodeUsage, "import --from %q: no agent or tool of that name: choose an agent `charter agents` lists, rulesync or ruler", req.From)
	}
	spots, ok := spotsOf.Get()[req.From][req.Level]
	if known {
		spots = agentSpots(a, req.Level)
		ok = len(spots) > 0
	}
	if !ok {
		return nil, core.Errorf(core.CodeUsage, "%s keeps no %s-level files charter can import: %s", req.From, req.Level, levelHint(sys, req.From))
	}
	s := &scanner{ctx: ctx, sys: sys, req: req, agents: sys.AgentTable.Names()}
	for _, sp := range spots {
		if err := s.spot(sp); err != nil {
			return nil, err
		}
	}
	s.dedupe()
	for i := range s.out {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if c := &s.out[i]; c.State == StateImported && c.Agent != "" {
			if err := s.verdict(c); err != nil {
				return nil, err
			}
		}
	}
	return s.out, nil
}

func levelHint(sys *core.System, from string) string {
	_, project := spotsOf.Get()[from][content.LevelProject]
	if a, ok := sys.AgentTable.Lookup(from); ok {
		project = len(agentSpots(a, content.LevelProject)) > 0
	}
	if project {
		return "run it in the repository with --project"
	}
	return "run it without --project"
}

type scanner struct {
	ctx    context.Context
	sys    *core.System
	req    Request
	agents []string
	out    []Candidate
}

// list is a folder's entries, sorted, not following links in them; nil
// when it does not exist.
func (s *scanner) list(dir string) ([]fs.FileInfo, error) {
	entries, _, err := s.sys.ListWithin(s.req.Within, dir)
	return entries, err
}

func (s *scanner) read(path string) ([]byte, error) {
	if s.req.Within != "" {
		return s.sys.ReadWithin(s.req.Within, path, fsys.KindContent)
	}
	data, err := s.sys.ReadFile(path, fsys.KindContent)
	if err != nil {
		return nil, fsys.ReadError(path, err)
	}
	return data, nil
}

func (s *scanner) spot(sp spot) error {
	dir := s.sys.Paths.Join(append([]string{s.req.Base}, strings.Split(sp.dir, "/")...)...)
	entries, err := s.list(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		name := e.Name()
		path := s.sys.Paths.Join(dir, name)
		if strings.HasPrefix(name, ".") || slices.Contains(sp.ignore, name) || (s.req.Recorded != nil && s.req.Recorded(path)) {
			continue
		}
		if sp.kind == content.KindSkill {
			if err := s.skill(sp, path, e); err != nil {
				return err
			}
			continue
		}
		stem, ok := strings.CutSuffix(name, sp.suffix)
		if !ok || stem == "" {
			continue // not this spot's kind of file (a README.txt beside the rules)
		}
		c := Candidate{Kind: sp.kind, Name: stem, State: StateImported, Native: path, Agent: sp.agent}
		if to, ok := sp.rename[stem]; ok {
			c.Name = to
			c.note("named %s: %s is no valid rule name", to, name)
		}
		switch {
		case e.IsDir():
			c.skip("is a folder: charter's %s are the files directly in %s", sp.kind.Dir(), sp.dir)
		case !e.Mode().IsRegular():
			c.skip("is %s, not a file", fsys.Describe(e.Mode()))
		case content.CheckName(c.Name) != "":
			c.skip("%s: rename the file and import again", content.CheckName(c.Name))
		default:
			data, err := s.read(path)
			if err != nil {
				return err
			}
			sp.convert(&c, data)
			if c.State == StateImported {
				s.parse(&c)
			}
		}
		s.out = append(s.out, c)
	}
	if sp.subdirs {
		for _, e := range entries {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && !slices.Contains(sp.ignore, e.Name()) {
				c := Candidate{Kind: sp.kind, Name: e.Name(), State: StateImported, Native: s.sys.Paths.Join(dir, e.Name())}
				c.skip("is a subfolder: charter's %s are the files directly in %s; move its files up to import them", sp.kind.Dir(), sp.dir)
				s.out = append(s.out, c)
			}
		}
	}
	return nil
}

func (s *scanner) skill(sp spot, dir string, e fs.FileInfo) error {
	c := Candidate{Kind: content.KindSkill, Name: e.Name(), State: StateImported, Native: dir, Agent: sp.agent}
	if msg := content.CheckName(e.Name()); msg != "" {
		c.skip("%s: rename the folder and import again", msg)
		s.out = append(s.out, c)
		return nil
	}
	it, probs, err := content.ReadSkill(s.ctx, s.sys, s.req.Within, dir, e)
	if err != nil {
		return err
	}
	if len(probs) > 0 {
		c.skip("%s", problems(probs))
	} else {
		c.Item, c.Files = it, it.Files
		c.Data = skillSource(it)
	}
	s.out = append(s.out, c)
	return nil
}

// skillSource is SKILL.md as the folder has it: the loader keeps its
// frontmatter and body byte for byte.
func skillSource(it *content.Item) []byte {
	if it.Front == nil {
		return it.Body
	}
	return []byte("---\n" + string(it.Front) + "---\n" + string(it.Body))
}

// parse checks that the source written is an item charter can read.
func (s *scanner) parse(c *Candidate) {
	it, probs := content.Parse(c.Kind, c.Name, c.Native, c.Data, s.agents)
	if len(probs) > 0 {
		c.skip("%s", problems(probs))
		return
	}
	c.Item = it
}

func problems(ps []content.Problem) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Message
		if p.Line > 0 {
			out[i] = fmt.Sprintf("line %d: %s", p.Line, p.Message)
		}
	}
	return strings.Join(out, "; ")
}

// dedupe skips a second item of the same kind and name in one import.
func (s *scanner) dedupe() {
	seen := map[string]string{}
	for i := range s.out {
		c := &s.out[i]
		if c.State != StateImported {
			continue
		}
		key := string(c.Kind) + "/" + c.Name
		if first, dup := seen[key]; dup {
			c.skip("%s holds a %s of the same name, imported instead", first, c.Kind)
			continue
		}
		seen[key] = c.Native
	}
}

// projectsOver reports whether the projected file rel lands on the native
// file or inside the native skill folder.
func (s *scanner) projectsOver(native, rel string) bool {
	path := s.sys.Paths.Join(append([]string{s.req.Base}, strings.Split(rel, "/")...)...)
	if path == native {
		return true
	}
	_, inside := s.sys.Paths.Within(native, path)
	return inside
}

// verdict projects the new item for the agent it came from and compares
// with the native file(s): Identical when every byte comes back.
func (s *scanner) verdict(c *Candidate) error {
	agent, _ := s.sys.AgentTable.Lookup(c.Agent)
	out := projection.Project(agent, []content.Item{*c.Item}, projection.Options{Level: s.req.Level, Autoload: s.req.Autoload})
	c.Projection, c.Paths = Identical, map[string]bool{}
	if len(out.Files) == 0 {
		// A place the agent reads no more (Codex's prompts/): the source
		// serves the other agents, and the native file is left alone.
		c.Projection = ""
		c.Reason = fmt.Sprintf("%s reads no %s files any more, so charter projects it for the other agents only; %s stays as it is: remove it once imported", c.Agent, c.Kind, c.Native)
		return nil
	}
	if !s.projectsOver(c.Native, out.Files[0].Rel) {
		// Cursor's and Copilot's skills: charter's copy goes to the shared
		// .agents/skills; the native folder is left as it is.
		to := s.sys.Paths.Join(append([]string{s.req.Base}, strings.Split(s.sys.Paths.Dir(out.Files[0].Rel), "/")...)...)
		c.Projection = Moved
		c.Reason = fmt.Sprintf("charter projects it to %s, which %s reads too; %s stays as it is: remove it once you have compared the two, or %s lists the item twice", to, c.Agent, c.Native, c.Agent)
		if c.Kind != content.KindSkill {
			// Copilot's prompt files: a place Copilot CLI reads no more.
			c.Reason = fmt.Sprintf("charter projects it to %s, which %s reads instead; %s stays as it is: remove it once imported", to, c.Agent, c.Native)
		}
		return nil
	}
	for _, f := range out.Files {
		path := s.sys.Paths.Join(append([]string{s.req.Base}, strings.Split(f.Rel, "/")...)...)
		c.Paths[path] = true
		disk, err := s.sys.ReadWithin(s.req.Within, path, fsys.KindContent)
		if err != nil {
			return err
		}
		if string(disk) != string(f.Data) {
			c.Projection = Converted
		}
	}
	if c.Projection == Converted && c.Reason == "" {
		c.Reason = "charter writes its frontmatter in its own form; the body stays as it is"
	}
	return nil
}
