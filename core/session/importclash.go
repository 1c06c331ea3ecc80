package session

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/importer"
)

// clash decides what becomes of a clash's native files (c.Paths, the
// files the existing source projects into for the agent read from). When
// the native item's body (and a skill's other files) is the existing
// source's byte for byte, as when a peer tool generated one rule into
// several agents, the projection takes them over (adopt). Otherwise they
// are left as they are (hold): the projection of the rest goes on, and
// the reason names both files and the fix.
func (s *Session) clash(ctx context.Context, c *importer.Candidate, within string, project bool, adopt, hold map[string]bool) (adopted []string, err error) {
	c.Projection = ""
	if len(c.Paths) == 0 || c.Item == nil {
		return nil, nil // a peer's source: nothing of it is projected back
	}
	same, err := s.sameBody(ctx, c, within)
	if err != nil {
		return nil, err
	}
	natives := make([]string, 0, len(c.Paths))
	for p := range c.Paths {
		natives = append(natives, p)
	}
	slices.Sort(natives)
	if same {
		for _, p := range natives {
			adopt[p] = true
		}
		c.Reason = c.Source + " exists with the same body: kept, and charter takes " + c.Native + " over as its projection"
		return natives, nil
	}
	for _, p := range natives {
		hold[p] = true
	}
	force := "charter apply --force"
	if project {
		force = "charter apply --project --force"
	}
	c.Reason = c.Source + " exists: charter never overwrites a source, nor " + c.Native + ", whose body differs from it; that file stays out of the projection: merge what it adds into the source and remove it, or run `" +
		force + "` to replace it with the source's projection"
	return nil, nil
}

// sameBody reports whether the existing source c.Source has the native
// item's body, and for a skill the same other files. A source charter
// cannot read as an item is not the same.
func (s *Session) sameBody(ctx context.Context, c *importer.Candidate, within string) (bool, error) {
	var ex *content.Item
	if c.Kind == content.KindSkill {
		fi, err := s.Sys.Fs.Stat(c.Source)
		if err != nil || !fi.IsDir() {
			return false, nil
		}
		it, probs, err := content.ReadSkill(ctx, s.Sys, within, c.Source, fi)
		if err != nil || len(probs) > 0 {
			return false, err
		}
		ex = it
	} else {
		data, err := s.Sys.ReadWithin(within, c.Source, fsys.KindContent)
		if err != nil || data == nil {
			return false, err
		}
		it, probs := content.Parse(c.Kind, c.Name, c.Source, data, s.Sys.AgentTable.Names())
		if len(probs) > 0 {
			return false, nil
		}
		ex = it
	}
	if !bytes.Equal(ex.Body, c.Item.Body) || len(ex.Files) != len(c.Item.Files) {
		return false, nil
	}
	files := func(fs []content.File) []content.File {
		out := slices.Clone(fs)
		slices.SortFunc(out, func(a, b content.File) int { return strings.Compare(a.Rel, b.Rel) })
		return out
	}
	a, b := files(ex.Files), files(c.Item.Files)
	for i := range a {
		if a[i].Rel != b[i].Rel || a[i].Exec != b[i].Exec || !bytes.Equal(a[i].Data, b[i].Data) {
			return false, nil
		}
	}
	return true, nil
}
