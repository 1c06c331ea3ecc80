package session

import (
	"context"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/loaded"
)

// loadedReporter is the one agent that reports the instruction files it
// loaded (Claude Code's InstructionsLoaded hook), for its rules alone.
const loadedReporter = "claude"

// Loaded is what the agents reported loading (core/loaded), seen from this
// session's project: View.Of(kind, name) gives an item's status.
func (s *Session) Loaded(ctx context.Context) (*loaded.View, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sc, err := s.Scope()
	if err != nil {
		return nil, err
	}
	root := ""
	if p, err := s.Project(); err != nil {
		return nil, err
	} else if p != nil {
		root = p.Dir
	}
	return loaded.Read(ctx, s.Sys, s.Sys.Paths.Join(sc.Path, "state"), root)
}

// LoadedEntry is one item of `charter rules status --json`: the list's
// fields and what the agents reported loading.
type LoadedEntry struct {
	content.Entry
	Loaded loaded.Status `json:"loaded"`
}

// LoadedDoc is `charter rules|skills|… status`: the effective items of
// one kind with their loaded state. Reported says whether any agent has
// reported loading here yet (renderers explain how to get reports).
type LoadedDoc struct {
	Items    []LoadedEntry `json:"items"`
	Reported bool          `json:"-"`
}

// ContentStatus is the effective items of kind with what the agents
// reported loading of each.
func (s *Session) ContentStatus(ctx context.Context, k content.Kind) (LoadedDoc, error) {
	if err := ctx.Err(); err != nil {
		return LoadedDoc{}, err
	}
	lib, sel, err := s.Library(ctx)
	if err != nil {
		return LoadedDoc{}, err
	}
	view, err := s.Loaded(ctx)
	if err != nil {
		return LoadedDoc{}, err
	}
	doc := LoadedDoc{Items: []LoadedEntry{}}
	for _, e := range lib.Effective("", sel) {
		if e.Kind == k {
			doc.Items = append(doc.Items, LoadedEntry{Entry: e, Loaded: view.Of(string(k), e.Name)})
		}
	}
	last, _ := view.Last()
	doc.Reported = last != ""
	return doc, nil
}
