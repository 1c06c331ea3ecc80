package session

import (
	"context"
	"slices"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/importer"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/projection"
	"github.com/agentkit/charter/core/settings"
)

// ImportRequest is one `charter import`.
type ImportRequest struct {
	From    string // an agent or a peer tool (importer.Sources)
	Project bool   // the repository's files, into .charter/
	DryRun  bool   // find and decide, write nothing
	Retire  bool   // a peer's: its generated files differing from charter's are replaced
	// Agents are written for besides the ones read from (--agent).
	Agents []string
	// ConfirmShared and Confirm are the projection's, as ApplyRequest's.
	ConfirmShared bool
	Confirm       func(*core.SharedWriteError) (bool, error)
}

// Imported is what an import found and did.
type Imported struct {
	From      string               `json:"from"`
	Level     string               `json:"level"`
	SourceDir string               `json:"sourceDir"` // where the sources go
	Items     []importer.Candidate `json:"items"`
	// Apply is what the projection after the import asks for: the agents
	// read from and the native files it takes over. Empty when nothing
	// was imported or adopted.
	Apply ApplyRequest `json:"-"`
	// Adopted are the native files of clashes whose body is the existing
	// source's: the projection takes them over as that source's.
	Adopted []string `json:"adopted,omitempty"`
	// Governance are the agent's permission rules and MCP servers, each
	// imported into the layer's settings file or reported with why not.
	Governance []importer.GovItem `json:"governance"`
}

// Projects reports whether the import ends with a projection.
func (r *Imported) Projects() bool { return r.Apply.Adopt != nil }

// Count is how many items are in state.
func (r *Imported) Count(state string) int {
	n := 0
	for _, c := range r.Items {
		if c.State == state {
			n++
		}
	}
	return n
}

// importSources finds req.From's files at the level, converts them and
// writes each as a charter source in the scope's folder or the project's
// .charter/, never over an existing source (a clash: reported and kept).
// Import then projects with Apply, so the native files become charter's.
func (s *Session) importSources(ctx context.Context, req ImportRequest) (*Imported, error) {
	if !slices.Contains(importer.Sources(s.Sys), req.From) {
		return nil, core.Errorf(core.CodeUsage, "--from %q is not a source charter imports: choose an agent `charter agents` lists, rulesync or ruler", req.From)
	}
	for _, n := range req.Agents {
		if _, ok := s.Sys.AgentTable.Lookup(strings.ToLower(strings.TrimSpace(n))); !ok && !strings.EqualFold(strings.TrimSpace(n), "all") {
			return nil, core.Errorf(core.CodeUnknownAgent, "--agent %q: no agent of that name: choose one that `charter agents` lists, or all", n)
		}
	}
	dir, opts, err := s.SourceDir(req.Project)
	if err != nil {
		return nil, err
	}
	ireq := importer.Request{From: req.From, Level: content.LevelUser, Autoload: true}
	var record string
	if req.Project {
		ireq.Level, ireq.Base, ireq.Within = content.LevelProject, s.Sys.Paths.Dir(dir), s.Sys.Paths.Dir(dir)
		record = s.Sys.Paths.Join(ireq.Base, core.ProjectDirName, "projection.lock")
	} else {
		record = s.Sys.Paths.Join(dir, "state", "projection.json")
		if a, ok := s.Sys.AgentTable.Lookup(req.From); ok && !importer.Peer(req.From) {
			if ireq.Base, err = profile.AgentDir(s.Sys, a); err != nil {
				return nil, err
			}
		}
	}
	if err := s.importSettings(ctx, &ireq, req.Project, record); err != nil {
		return nil, err
	}
	items, err := importer.Scan(ctx, s.Sys, ireq)
	if err != nil {
		return nil, err
	}
	gov, err := s.importGovernance(ctx, ireq, req.Project, req.DryRun)
	if err != nil {
		return nil, err
	}
	out := &Imported{From: req.From, Level: ireq.Level, SourceDir: dir, Items: items, Governance: gov}
	adopt, hold := map[string]bool{}, map[string]bool{}
	for i := range out.Items {
		if err := ctx.Err(); err != nil {
			return out, err // each source written is whole; run import again
		}
		c := &out.Items[i]
		if c.State != importer.StateImported {
			continue
		}
		c.Source = sourcePath(s.Sys, dir, c)
		if _, err := s.Sys.Fs.Stat(c.Source); err == nil || !fsys.IsAbsent(err) {
			c.State, c.Reason = importer.StateClash, c.Source+" exists: charter never overwrites a source; rename one of them and import again"
			adopted, err := s.clash(ctx, c, ireq.Within, req.Project, adopt, hold)
			if err != nil {
				return out, err
			}
			out.Adopted = append(out.Adopted, adopted...)
			continue
		}
		if !req.DryRun {
			if err := s.writeSource(c, opts); core.ErrorCode(err) == core.CodeItemExists {
				c.State, c.Reason, c.Projection = importer.StateClash, s.Sys.ErrorMessage(err), ""
				continue
			} else if err != nil {
				return out, err
			}
		}
		for p := range c.Paths {
			adopt[p] = true
		}
	}
	if importer.Peer(req.From) {
		if err := s.peerTakeover(out, ireq, dir, req.Retire, adopt, hold); err != nil {
			return out, err
		}
		for p := range adopt {
			out.Adopted = append(out.Adopted, p)
		}
		slices.Sort(out.Adopted)
	}
	if out.Count(importer.StateImported) > 0 && req.Project && !req.DryRun {
		if err := s.ensureProject("charter import"); err != nil {
			return out, err
		}
	}
	if !req.DryRun {
		// The files about to be taken over, as they are now, for uninstall.
		if err := s.keepOriginals(ireq.Within, adopt); err != nil {
			return out, err
		}
	}
	if out.Count(importer.StateImported) > 0 || len(out.Adopted) > 0 {
		also := out.Apply.Also // a peer's: the agents whose files it generated
		out.Apply = ApplyRequest{Project: req.Project, Adopt: adopt, Hold: hold, Also: also}
		switch {
		case !importer.Peer(req.From):
			// The agent read from (and those --agent names) alone, at
			// either level: import writes no other agent's files; the
			// skin says what `charter apply` would add (SPEC §16).
			out.Apply.Also = []string{req.From}
			out.Apply.Agents = importAgents(out.Apply.Also, req.Agents)
		case len(req.Agents) > 0:
			out.Apply.Agents = importAgents(also, req.Agents)
		}
		// A peer's text also sits in instruction files (CLAUDE.md,
		// AGENTS.md) that no whole file names: without --agent its
		// projection keeps the level's agents, so that what --retire
		// takes out is put back as charter's.
	}
	return out, nil
}

// importAgents are the agents import's projection writes for: those it
// read from, then those named with --agent.
func importAgents(read, named []string) []string {
	out := slices.Clone(read)
	for _, n := range named {
		if n = strings.ToLower(strings.TrimSpace(n)); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// ensureProject makes the repository a charter project when it is not
// one yet (a .charter/ holding sources alone is none): an empty settings
// file, so that this apply and every later one find it. by names the
// command in the file's one comment.
func (s *Session) ensureProject(by string) error {
	if p, err := s.Project(); err != nil || p != nil {
		return err
	}
	t, err := s.Target(settings.LayerProject)
	if err != nil {
		return err
	}
	return t.Replace(nil, []byte("# The project's charter settings ("+by+" made this file).\n"), false)
}

// importSettings fills in what the level's settings and record say:
// skills.autoload for the verdict on skills, and the files charter
// already projected (its own output is not imported back).
func (s *Session) importSettings(ctx context.Context, ireq *importer.Request, project bool, record string) error {
	snap, err := s.ApplySettings(ctx, project)
	if err != nil {
		return err
	}
	ireq.Autoload = snap.Values["skills.autoload"] != false
	rec, err := projection.ReadRecord(s.Sys, record, ireq.Within)
	if err != nil {
		return err
	}
	own := map[string]bool{}
	for _, f := range rec.Files {
		p := f.Path
		if project {
			p = s.Sys.Paths.Join(append([]string{ireq.Base}, strings.Split(f.Path, "/")...)...)
		}
		own[p] = true
		if f.Kind == string(content.KindSkill) {
			// A skill is known by its folder: the nearest one of its name.
			for d := s.Sys.Paths.Dir(p); d != s.Sys.Paths.Dir(d); d = s.Sys.Paths.Dir(d) {
				if strings.HasSuffix(d, f.Item) && len(d) > len(f.Item) && strings.ContainsRune(`/\`, rune(d[len(d)-len(f.Item)-1])) {
					own[d] = true
					break
				}
			}
		}
	}
	ireq.Recorded = func(path string) bool { return own[path] }
	return nil
}

// sourcePath is where c's source goes: a skill's folder, else its file.
func sourcePath(sys *core.System, dir string, c *importer.Candidate) string {
	if c.Kind == content.KindSkill {
		return sys.Paths.Join(dir, c.Kind.Dir(), c.Name)
	}
	return sys.Paths.Join(dir, c.Kind.Dir(), c.Name+".md")
}

// writeSource writes c's source through the guarded write, each file
// only where none is (a source made meanwhile is a clash, kept).
func (s *Session) writeSource(c *importer.Candidate, opts fsys.WriteOptions) error {
	write := func(path string, data []byte, exec bool) error {
		o := opts
		if exec {
			o.NewMode = 0o755
			if opts.NewMode == 0 {
				o.NewMode = 0o700
			}
		}
		return s.Sys.UpdateFileOpts(path, o, func(old []byte) ([]byte, error) {
			if old != nil {
				return nil, core.Errorf(core.CodeItemExists, "%s exists: charter never overwrites a source; rename one of them and import again", path)
			}
			return data, nil
		})
	}
	if c.Kind != content.KindSkill {
		return write(c.Source, c.Data, false)
	}
	if err := write(s.Sys.Paths.Join(c.Source, content.SkillFile), c.Data, false); err != nil {
		return err
	}
	for _, f := range c.Files {
		p := s.Sys.Paths.Join(append([]string{c.Source}, strings.Split(f.Rel, "/")...)...)
		if err := write(p, f.Data, f.Exec); err != nil {
			return err
		}
	}
	return nil
}
