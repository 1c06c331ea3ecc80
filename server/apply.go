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

func (s *Server) report(results []apply.Result, full *apply.Full) apply.FullReport {
	return apply.NewFullReport(s.cfg.Sys, results, full)
}

// planApply plans everything apply writes, as the CLI does (Session.PlanAll):
// the user-level files and content, or with project the served project's
// (and its .mcp.json). runOnly plans for a write, with no diff to show.
func (s *Server) planApply(agents []string, project, runOnly bool) (*apply.Full, error) {
	full, err := s.sess.PlanAll(session.ApplyRequest{Agents: agents, Project: project, RunOnly: runOnly})
	if errors.Is(err, session.ErrNoProject) {
		return nil, core.Errorf(core.CodeUsage, "this server serves no project: start `charter serve` inside the project, or with --project-dir DIR")
	}
	return full, err
}

// getApply reports each target as current or outdated, with the diff a
// POST would make, and each projected file with its state. ?agent=claude,codex
// (or repeated) chooses the agents; ?project=true the served project's files.
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
	full, err := s.planApply(agents, project, false)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.report(apply.Status(full.Targets), full))
	return nil
}

// postApply writes {"agents":[…],"project":bool,"confirmSharedWrite":bool}.
// The whole change set is decided first: a projected file charter does not
// own, or any file behind an unconfirmed shared link, leaves every file as
// it was (the 409 lists every target and file with its state).
func (s *Server) postApply(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Agents             []string `json:"agents"`
		Project            bool     `json:"project"`
		ConfirmSharedWrite bool     `json:"confirmSharedWrite"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	full, err := s.planApply(req.Agents, req.Project, true)
	if err != nil {
		return err
	}
	if full.Content != nil {
		if err := full.Content.Conflict(); err != nil {
			return err
		}
	}
	if err := full.Guard(s.cfg.Sys, req.ConfirmSharedWrite); err != nil {
		var se *core.SharedWriteError
		if errors.As(err, &se) {
			return full.Refused(s.cfg.Sys, err)
		}
		return err
	}
	results, err := s.sess.RunAll(full, req.ConfirmSharedWrite)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.report(results, full))
	return nil
}
