package server

import (
	"net/http"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/session"
)

// getTrust is GET /api/v1/trust: the served project's trust document
// (session.TrustDoc), the values that need the user's trust, each with its
// key, layer and file, and their hash.
func (s *Server) getTrust(w http.ResponseWriter, r *http.Request) error {
	doc, err := s.sess.TrustState(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, doc)
	return nil
}

// postTrust is POST /api/v1/trust {"sha256","confirmSharedWrite"}: it trusts
// the served project's values only if they still hash to sha256, the hash
// of the values the client showed. Otherwise 409 untrusted, with the
// current document in "trust" to show again, and nothing recorded.
func (s *Server) postTrust(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		SHA256             *string `json:"sha256"`
		ConfirmSharedWrite bool    `json:"confirmSharedWrite"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	if req.SHA256 == nil {
		return errcode.Errorf(core.CodeInvalidRequest, `missing "sha256": send the sha256 of GET /api/v1/trust whose values you showed`)
	}
	doc, err := s.sess.Trust(r.Context(), session.TrustRequest{SHA256: req.SHA256, ConfirmShared: req.ConfirmSharedWrite})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, doc)
	return nil
}

// deleteTrust is DELETE /api/v1/trust, body optional
// {"confirmSharedWrite"}: the served project is no longer trusted.
func (s *Server) deleteTrust(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		ConfirmSharedWrite bool `json:"confirmSharedWrite"`
	}
	if err := decodeOptional(r, &req); err != nil {
		return err
	}
	doc, err := s.sess.Revoke(r.Context(), req.ConfirmSharedWrite)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, doc)
	return nil
}
