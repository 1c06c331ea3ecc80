package server

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/session"
)

// apply is the session's apply, with this server's words for a request
// of the project's files when it serves none.
func (s *Server) apply(r *http.Request, req session.ApplyRequest) (*session.ApplyReport, error) {
	rep, err := s.sess.Apply(r.Context(), req)
	if errors.Is(err, session.ErrNoProject) {
		return nil, errcode.Errorf(core.CodeUsage, "this server serves no project: start `charter serve` inside the project, or with --project-dir DIR")
	}
	return rep, err
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
			return errcode.Errorf(core.CodeInvalidRequest, "project must be true or false")
		}
	}
	rep, err := s.apply(r, session.ApplyRequest{Agents: agents, Project: project, DryRun: true})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, rep)
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
	rep, err := s.apply(r, session.ApplyRequest{Agents: req.Agents, Project: req.Project, ConfirmShared: req.ConfirmSharedWrite})
	if err != nil {
		return err // a refused link: 409 with the report's targets and files
	}
	writeJSON(w, http.StatusOK, rep)
	return nil
}
