package server

import (
	"net/http"
	"strings"

	"github.com/agentkit/charter/core/apply"
)

// planApply reads this scope's settings and plans the agents' files.
func (s *Server) planApply(agents []string) ([]apply.Target, error) {
	st, err := s.store()
	if err != nil {
		return nil, err
	}
	snap, err := st.Read()
	if err != nil {
		return nil, err
	}
	return apply.Plan(s.cfg.Sys, snap, s.cfg.Version, agents)
}

// getApply reports each target as current or outdated, with the diff a
// POST would make. ?agent=claude,codex (or repeated) chooses the agents.
func (s *Server) getApply(w http.ResponseWriter, r *http.Request) error {
	var agents []string
	for _, v := range r.URL.Query()["agent"] {
		agents = append(agents, strings.Split(v, ",")...)
	}
	targets, err := s.planApply(agents)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, apply.Report{Targets: apply.Status(targets)})
	return nil
}

// postApply writes {"agents":[…],"confirmSharedWrite":bool}. Targets behind
// a shared link are not written unless confirmed; the others are, and the
// 409 lists every target with its state.
func (s *Server) postApply(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Agents             []string `json:"agents"`
		ConfirmSharedWrite bool     `json:"confirmSharedWrite"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	targets, err := s.planApply(req.Agents)
	if err != nil {
		return err
	}
	results, err := apply.Run(s.cfg.Sys, targets, req.ConfirmSharedWrite)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, apply.Report{Targets: results})
	return nil
}
