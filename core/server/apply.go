package server

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/apply"
	"github.com/agentkit/charter/core/session"
)

// planApply plans the agents' files: the user-level ones, or with project
// the served project's (and its .mcp.json). runOnly plans for a write,
// with no diff to show.
func (s *Server) planApply(agents []string, project, runOnly bool) ([]apply.Target, error) {
	targets, err := s.sess.PlanApply(session.ApplyRequest{Agents: agents, Project: project, RunOnly: runOnly})
	if errors.Is(err, session.ErrNoProject) {
		return nil, core.Errorf(core.CodeUsage, "this server serves no project: start `charter serve` inside the project, or with --project-dir DIR")
	}
	return targets, err
}

// getApply reports each target as current or outdated, with the diff a
// POST would make. ?agent=claude,codex (or repeated) chooses the agents;
// ?project=true the served project's files.
func (s *Server) getApply(w http.ResponseWriter, r *http.Request) error {
	var agents []string
	for _, v := range r.URL.Query()["agent"] {
		agents = append(agents, strings.Split(v, ",")...)
	}
	project := false
	if v := r.URL.Query().Get("project"); v != "" {
		var err error
		if project, err = strconv.ParseBool(v); err != nil {
			return core.Errorf(core.CodeInvalidRequest, "project must be true or false")
		}
	}
	targets, err := s.planApply(agents, project, false)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, apply.NewReport(s.cfg.Sys, apply.Status(targets)))
	return nil
}

// postApply writes {"agents":[…],"project":bool,"confirmSharedWrite":bool}.
// Targets behind a shared link are not written unless confirmed; the others
// are, and the 409 lists every target with its state.
func (s *Server) postApply(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Agents             []string `json:"agents"`
		Project            bool     `json:"project"`
		ConfirmSharedWrite bool     `json:"confirmSharedWrite"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	targets, err := s.planApply(req.Agents, req.Project, true)
	if err != nil {
		return err
	}
	results, err := s.sess.RunApply(targets, req.ConfirmSharedWrite)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, apply.NewReport(s.cfg.Sys, results))
	return nil
}
