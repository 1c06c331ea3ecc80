package session

import (
	"github.com/agentkit/charter/core/loaded"
)

// loadedReporter is the one agent that reports the instruction files it
// loaded (Claude Code's InstructionsLoaded hook), for its rules alone.
const loadedReporter = "claude"

// Loaded is what the agents reported loading (core/loaded), seen from this
// session's project: View.Of(kind, name) gives an item's status.
func (s *Session) Loaded() (*loaded.View, error) {
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
	return loaded.Read(s.Sys, s.Sys.Paths.Join(sc.Path, "state"), root), nil
}
