package session

import (
	"bytes"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/importer"
	"github.com/agentkit/charter/core/projection"
)

// peerTakeover finds the files a peer tool generated for the items just
// imported from it (or already a source of the same bytes) where charter's
// projection writes: for every agent, the item projected at the level. A
// file that exists, charter did not record, and whose body is the item's
// (blank lines around it aside: rulesync writes none after its
// frontmatter, charter one) is taken over (adopt); one whose body differs
// is left as it is (hold) and named in the candidate's notes with the fix.
// The agents of the files taken over are planned besides the level's
// (out.Apply.Also). It reads only, so a dry run says what the real run
// does.
func (s *Session) peerTakeover(out *Imported, ireq importer.Request, dir string, retire bool, adopt, hold map[string]bool) error {
	if ireq.Level != content.LevelProject {
		return nil // a peer's sources are a repository's
	}
	base := ireq.Base
	agents := s.Sys.AgentTable.Names()
	for i := range out.Items {
		c := &out.Items[i]
		if c.Data == nil || (c.State != importer.StateImported && !s.sameSource(c, ireq.Within, dir)) {
			continue
		}
		it, probs := content.Parse(c.Kind, c.Name, sourcePath(s.Sys, dir, c), c.Data, agents)
		if len(probs) > 0 || it == nil {
			continue
		}
		it.Files, it.Level = c.Files, ireq.Level
		for _, a := range s.Sys.AgentTable.All() {
			o := projection.Project(a, []content.Item{*it}, projection.Options{Level: ireq.Level, Autoload: ireq.Autoload})
			for _, f := range o.Files {
				path := s.Sys.Paths.Join(append([]string{base}, strings.Split(f.Rel, "/")...)...)
				if adopt[path] || hold[path] || (ireq.Recorded != nil && ireq.Recorded(path)) {
					continue
				}
				disk, err := s.Sys.ReadWithin(ireq.Within, path, fsys.KindContent)
				if err != nil || disk == nil {
					if err != nil && !os.IsNotExist(err) {
						return err
					}
					continue
				}
				if sameGenerated(disk, f.Data) {
					adopt[path] = true
					if !slices.Contains(out.Apply.Also, a.Name) {
						out.Apply.Also = append(out.Apply.Also, a.Name)
					}
					continue
				}
				if retire {
					// Retiring the peer: charter's projection replaces it
					// (its bytes kept for uninstall).
					adopt[path] = true
					c.Notes = append(c.Notes, path+" differs from what charter projects for "+a.Name+": --retire replaces it")
					continue
				}
				hold[path] = true
				c.Notes = append(c.Notes, path+" differs from what charter projects for "+a.Name+": left as it is; compare the two, then run `charter apply --project --force` to replace it")
			}
		}
	}
	return nil
}

// sameSource reports whether c's source exists with the bytes import
// would write (a second import after the first).
func (s *Session) sameSource(c *importer.Candidate, within, dir string) bool {
	if c.State != importer.StateClash {
		return false
	}
	p := sourcePath(s.Sys, dir, c)
	if c.Kind == content.KindSkill {
		p = s.Sys.Paths.Join(p, content.SkillFile)
	}
	data, err := s.Sys.ReadWithin(within, p, fsys.KindContent)
	return err == nil && bytes.Equal(data, c.Data)
}

// sameGenerated reports whether a peer's file says what charter's
// projection says: the same frontmatter and the same body, each compared
// line by line with blank lines at their ends aside, and the body
// trimmed of surrounding blank lines.
func sameGenerated(disk, want []byte) bool {
	if same, ok := sameTOML(disk, want); ok {
		return same // Codex's subagent files
	}
	df, db := splitFront(disk)
	wf, wb := splitFront(want)
	if db != wb {
		return false
	}
	if df == wf {
		return true
	}
	// The same keys written another way (a folded description, quotes).
	var dm, wm map[string]any
	if yaml.Unmarshal([]byte(df), &dm) != nil || yaml.Unmarshal([]byte(wf), &wm) != nil {
		return false
	}
	return reflect.DeepEqual(dm, wm)
}

func splitFront(data []byte) (front, body string) {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	if rest, ok := strings.CutPrefix(s, "---\n"); ok {
		if i := strings.Index(rest, "\n---\n"); i >= 0 {
			front, s = rest[:i], rest[i+len("\n---\n"):]
		} else if f, ok := strings.CutSuffix(rest, "\n---"); ok {
			front, s = f, ""
		}
	}
	lines := strings.Split(front, "\n")
	lines = slices.DeleteFunc(lines, func(l string) bool { return strings.TrimSpace(l) == "" })
	return strings.Join(lines, "\n"), strings.Trim(s, "\n \t")
}

// sameTOML compares two TOML documents by their values, each string
// trimmed of surrounding blank lines (a ”' block's first newline);
// ok false when either is no TOML table.
func sameTOML(a, b []byte) (same, ok bool) {
	var am, bm map[string]any
	if toml.Unmarshal(a, &am) != nil || toml.Unmarshal(b, &bm) != nil || len(am) == 0 || len(bm) == 0 {
		return false, false
	}
	trim := func(m map[string]any) {
		for k, v := range m {
			if s, isText := v.(string); isText {
				m[k] = strings.TrimSpace(s)
			}
		}
	}
	trim(am)
	trim(bm)
	return reflect.DeepEqual(am, bm), true
}
