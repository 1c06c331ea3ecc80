package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/settings"
)

// applyDoc is the body of GET and POST /api/v1/apply, the same document
// `charter apply --json` prints.
type applyDoc struct {
	Targets []apply.Result `json:"targets"`
}

// planApply reads this scope's settings and plans the agents' files.
func (s *Server) planApply(agents []string) ([]apply.Target, error) {
	snap, err := settings.New(s.cfg.Sys, s.cfg.Scope).Read()
	if err != nil {
		return nil, err
	}
	targets, err := apply.Plan(s.cfg.Sys, snap, s.cfg.Version, agents)
	var me *apply.MarkerError
	if errors.As(err, &me) {
		// The user's file, not the request, is at fault: fix it and resend.
		return nil, errorf(http.StatusConflict, "malformed_markers", "%s", err)
	}
	return targets, err
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
	writeJSON(w, http.StatusOK, applyDoc{Targets: apply.Status(targets)})
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
	var be *apply.BlockedError
	if errors.As(err, &be) {
		status, body := errorResponse(err, w.Header())
		body["targets"] = be.Results
		writeJSON(w, status, map[string]any{"error": body})
		return nil
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, applyDoc{Targets: results})
	return nil
}
