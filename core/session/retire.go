package session

import (
	"context"
	"io/fs"
	"slices"
	"strings"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/importer"
	"github.com/agentkit/charter/core/lazy"
	"github.com/agentkit/charter/core/projection"
)

// PeerLeft is what is left of a peer tool (ruler, rulesync) in the
// repository beside charter after an import (SPEC §16): its generated
// text and files, its .gitignore block, its config. `import --retire`
// removes the Changes; Kept says what stays and why.
type PeerLeft struct {
	Tool    string       `json:"tool"`
	Changes []PeerChange `json:"changes"`
	Kept    []string     `json:"kept,omitempty"`
}

// PeerChange is one file retiring the peer edits or removes.
type PeerChange struct {
	Path    string `json:"path"`
	What    string `json:"what"`    // generated text, generated file, .gitignore block, config
	Removes bool   `json:"removes"` // the file goes (else only the peer's text)
	data    []byte
	old     []byte
	mode    fs.FileMode
}

// Empty reports whether nothing of the peer is left.
func (l *PeerLeft) Empty() bool { return l == nil || len(l.Changes) == 0 }

// the peer's configuration, relative to the project root: removed whole
// once every item in it is a charter source.
var peerConfig = lazy.Value[map[string][]string]{Make: func() map[string][]string {
	return map[string][]string{
		"ruler":    {".ruler"},
		"rulesync": {".rulesync", "rulesync.jsonc", "rulesync.local.jsonc"},
	}
}}

// PeerLeft finds what is left of tool in the project. It reads only.
func (s *Session) PeerLeft(ctx context.Context, tool string) (*PeerLeft, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := &PeerLeft{Tool: tool}
	p, err := s.Project()
	if err != nil || p == nil || !importer.Peer(tool) {
		return out, err
	}
	root := p.Dir
	join := func(rel string) string {
		return s.Sys.Paths.Join(append([]string{root}, strings.Split(rel, "/")...)...)
	}
	hasConfig := false
	for _, c := range peerConfig.Get()[tool] {
		if _, err := s.Sys.Fs.Stat(join(c)); err == nil {
			hasConfig = true
		}
	}
	if !hasConfig {
		return out, nil // retired already, or never here
	}
	items, err := importer.Scan(ctx, s.Sys, importer.Request{From: tool, Level: content.LevelProject, Base: root, Within: root, Autoload: true})
	if err != nil {
		return nil, err
	}
	dir := s.Sys.Paths.Join(root, core.ProjectDirName)
	all, bodies := true, []string{}
	for i := range items {
		c := &items[i]
		src := sourcePath(s.Sys, dir, c)
		if _, err := s.Sys.Fs.Stat(src); c.State == importer.StateSkipped || err != nil {
			all = false
			out.Kept = append(out.Kept, c.Native+" is no charter source yet ("+orText(c.Reason, "run `charter import --from "+tool+" --project` first")+"): "+tool+"'s config stays")
			continue
		}
		if c.Kind == content.KindRule {
			if raw, err := s.Sys.ReadWithin(root, c.Native, fsys.KindContent); err == nil {
				_, b := splitFront(raw)
				bodies = append(bodies, b)
			}
		}
	}
	rulerSrc := map[string]string{}
	if tool == "ruler" {
		s.walkFiles(join(".ruler"), func(path string, data []byte) {
			if rel, ok := s.Sys.Paths.Within(root, path); ok && strings.HasSuffix(path, ".md") {
				rulerSrc[strings.Join(rel, "/")] = strings.TrimSpace(string(data))
			}
		})
	}
	// Every instruction file an agent reads in a project, the table's.
	seen := map[string]bool{}
	for _, a := range s.Sys.AgentTable.All() {
		for _, rel := range []string{a.ProjectFile, a.Private} {
			if rel == "" || seen[rel] {
				continue
			}
			seen[rel] = true
			if err := s.leftText(out, join(rel), root, bodies, rulerSrc); err != nil {
				return nil, err
			}
		}
	}
	if err := s.leftFiles(out, items, root); err != nil {
		return nil, err
	}
	begin, end := rulerIgnoreA, rulerIgnoreZ
	if tool == "rulesync" {
		begin, end = syncIgnoreA, syncIgnoreZ
	}
	if old, err := s.Sys.ReadWithin(root, join(".gitignore"), fsys.KindContent); err == nil && old != nil {
		if now, ok := withoutIgnoreBlock(string(old), begin, end); ok {
			out.add(PeerChange{Path: join(".gitignore"), What: ".gitignore block", Removes: strings.TrimSpace(now) == "", data: []byte(now), old: old})
		}
	}
	if all {
		s.leftConfig(out, tool, root)
	}
	return out, nil
}

func orText(s, or string) string {
	if s != "" {
		return s
	}
	return or
}

func (l *PeerLeft) add(c PeerChange) {
	if c.Removes {
		c.data = nil
	}
	l.Changes = append(l.Changes, c)
}

// leftText is the peer's text in an instruction file, outside charter's
// block: the file without it, or no file when nothing else is in it.
func (s *Session) leftText(out *PeerLeft, path, root string, bodies []string, rulerSrc map[string]string) error {
	old, err := s.Sys.ReadWithin(root, path, fsys.KindContent)
	if err != nil || old == nil {
		return err
	}
	before, blk, after, found, err := apply.Outside(path, old)
	if err != nil {
		return err
	}
	strip := func(t string) string {
		if out.Tool == "ruler" {
			t, kept := stripRuler(t, rulerSrc)
			out.Kept = append(out.Kept, prefixed(path+": ", kept)...)
			return t
		}
		return stripBodies(t, bodies)
	}
	nb, na := strip(string(before)), strip(string(after))
	if nb == joinKept([]string{string(before)}) && na == joinKept([]string{string(after)}) {
		return nil // nothing of the peer's
	}
	var b strings.Builder
	if nb != "" {
		b.WriteString(nb + "\n")
		if found {
			b.WriteString("\n")
		}
	}
	b.Write(blk)
	if na != "" {
		b.WriteString("\n" + na + "\n")
	}
	out.add(PeerChange{Path: path, What: "generated text", Removes: b.Len() == 0, data: []byte(b.String()), old: old})
	return nil
}

func prefixed(p string, ss []string) []string {
	for i := range ss {
		ss[i] = p + ss[i]
	}
	return ss
}

// leftFiles are the files the peer generated for its items that charter
// did not take over (a rule in a folder charter's placement does not use,
// Cursor's .mdc when Cursor reads AGENTS.md): same body as the item.
func (s *Session) leftFiles(out *PeerLeft, items []importer.Candidate, root string) error {
	rec, err := projection.ReadRecord(s.Sys, s.Sys.Paths.Join(root, core.ProjectDirName, "projection.lock"), root)
	if err != nil {
		return err
	}
	own := map[string]bool{}
	for _, f := range rec.Files {
		own[f.Path] = true
	}
	seen := map[string]bool{}
	for i := range items {
		c := &items[i]
		if c.Data == nil || c.State == importer.StateSkipped {
			continue
		}
		it, probs := content.Parse(c.Kind, c.Name, c.Native, c.Data, s.Sys.AgentTable.Names())
		if len(probs) > 0 || it == nil || c.Kind == content.KindSkill {
			continue // a skill's folder may hold files of the person's
		}
		_, want := splitFront(c.Data)
		for _, a := range s.Sys.AgentTable.All() {
			for _, f := range projection.Project(a, []content.Item{*it}, projection.Options{Level: content.LevelProject, Autoload: true}).Files {
				path := s.Sys.Paths.Join(append([]string{root}, strings.Split(f.Rel, "/")...)...)
				if own[f.Rel] || seen[path] {
					continue
				}
				seen[path] = true
				disk, err := s.Sys.ReadWithin(root, path, fsys.KindContent)
				if err != nil || disk == nil {
					continue
				}
				if _, b := splitFront(disk); b == want {
					out.add(PeerChange{Path: path, What: "generated file", Removes: true, old: disk})
				}
			}
		}
	}
	return nil
}

// leftConfig is the peer's config and source folder, file by file, when
// nothing in it is beyond what charter imported.
func (s *Session) leftConfig(out *PeerLeft, tool, root string) {
	var files []PeerChange
	stays := false
	keep := func(why string) { out.Kept, stays = append(out.Kept, why), true }
	for _, rel := range peerConfig.Get()[tool] {
		p := s.Sys.Paths.Join(append([]string{root}, strings.Split(rel, "/")...)...)
		s.walkFiles(p, func(path string, data []byte) {
			r, _ := s.Sys.Paths.Within(root, path)
			name := strings.Join(r, "/")
			inRulesync := func(d string) bool { return strings.HasPrefix(name, ".rulesync/"+d) }
			switch {
			case tool == "ruler" && name == ".ruler/ruler.toml" && strings.Contains(string(data), "[mcp_servers"):
				keep(path + " names MCP servers charter has not taken over: " + rel + " stays")
			case tool == "ruler" && !strings.HasSuffix(name, ".md") && name != ".ruler/ruler.toml":
				keep(path + " is no rule charter imported: " + rel + " stays")
			case tool == "rulesync" && strings.HasPrefix(name, ".rulesync/") && !slices.ContainsFunc([]string{"rules/", "commands/", "subagents/", "skills/"}, inRulesync):
				keep(path + " is nothing charter imports: " + rel + " stays")
			default:
				files = append(files, PeerChange{Path: path, What: "config", Removes: true, old: data})
			}
		})
	}
	if !stays {
		for _, f := range files {
			out.add(f)
		}
	}
}

// walkFiles calls fn with each regular file under dir (dir itself when a
// file), in lexical order; unreadable ones are left out.
func (s *Session) walkFiles(dir string, fn func(path string, data []byte)) {
	_ = afero.Walk(s.Sys.Fs, dir, func(p string, fi fs.FileInfo, err error) error {
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		if data, err := afero.ReadFile(s.Sys.Fs, p); err == nil {
			fn(p, data)
		}
		return nil
	})
}

// Retire carries out l (PeerLeft's, for the project): every file's bytes
// are kept first with the files import took over, so that `charter
// uninstall` puts the peer back as it was; then each file is rewritten
// or removed, and the peer's folders left empty go.
func (s *Session) Retire(ctx context.Context, l *PeerLeft, confirm bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if l.Empty() {
		return nil
	}
	p, err := s.Project()
	if err != nil || p == nil {
		return orNoProject(err)
	}
	root := p.Dir
	at, err := s.originalsPath(root)
	if err != nil {
		return err
	}
	keep := make([]Original, 0, len(l.Changes))
	for _, c := range l.Changes {
		fi, err := s.Sys.Fs.Stat(c.Path)
		if err != nil {
			return fsys.ReadError(c.Path, err)
		}
		rel, _ := s.Sys.Paths.Within(root, c.Path)
		// The bytes before charter: its block is in them already.
		before, err := apply.Uninstalled(c.Path, c.old)
		if err != nil {
			return err
		}
		o := Original{Path: strings.Join(rel, "/"), Mode: fi.Mode().Perm(), Data: before}
		if !c.Removes {
			u, err := apply.Uninstalled(c.Path, c.data)
			if err != nil {
				return err
			}
			if u != nil {
				o.Left = projection.Sum(u)
			}
		}
		keep = append(keep, o)
	}
	if err := s.addOriginals(at, root, keep); err != nil {
		return err
	}
	opts := fsys.WriteOptions{ConfirmShared: confirm, Within: root, Whole: true}
	for _, c := range l.Changes {
		if c.Removes {
			err = s.Sys.RemoveFile(c.Path, opts)
		} else {
			err = s.Sys.UpdateFileOpts(c.Path, opts, func([]byte) ([]byte, error) { return c.data, nil })
		}
		if err != nil && !fsys.IsAbsent(err) {
			return err
		}
	}
	for _, rel := range peerConfig.Get()[l.Tool] {
		var dirs []string
		top := s.Sys.Paths.Join(append([]string{root}, strings.Split(rel, "/")...)...)
		_ = afero.Walk(s.Sys.Fs, top, func(p string, fi fs.FileInfo, err error) error {
			if err == nil && fi.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
		slices.Reverse(dirs)
		for _, d := range dirs {
			if _, err := s.Sys.RemoveEmptyDir(d, opts); err != nil {
				return err
			}
		}
	}
	return nil
}
