package server

import (
	"net/http"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/gates"
	"github.com/agentkit/charter/core/settings"
)

// trustDoc is the answer of /api/v1/trust: the served project's trust
// state (gates.Trust), and for DELETE whether a record was removed.
type trustDoc struct {
	gates.Trust
	Revoked *bool `json:"revoked,omitempty"`
}

// trustStore is the store of the served project, refusing without one.
func (s *Server) trustStore() (*settings.Store, *settings.Snapshot, error) {
	st, err := s.store()
	if err != nil {
		return nil, nil, err
	}
	if st.Project() == nil {
		return nil, nil, core.Errorf(core.CodeNotFound, "this server serves no project, so there is nothing to trust: start charter serve inside the project, or with --project-dir DIR")
	}
	snap, err := st.Read()
	if err != nil {
		return nil, nil, err
	}
	return st, snap, nil
}

// getTrust is GET /api/v1/trust: the values of the served project that
// need the user's trust, each with its key, layer and file, and their hash.
func (s *Server) getTrust(w http.ResponseWriter, r *http.Request) error {
	_, snap, err := s.trustStore()
	if err != nil {
		return err
	}
	t, err := gates.TrustOf(s.cfg.Sys, snap)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, trustDoc{Trust: t})
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
		return core.Errorf(core.CodeInvalidRequest, `missing "sha256": send the sha256 of GET /api/v1/trust whose values you showed`)
	}
	st, snap, err := s.trustStore()
	if err != nil {
		return err
	}
	t, err := gates.TrustProject(s.cfg.Sys, snap, *req.SHA256, st.Project().Owner, req.ConfirmSharedWrite)
	if core.ErrorCode(err) == core.CodeUntrusted {
		return &core.Error{Kind: core.CodeUntrusted, Msg: err.Error(), Extra: map[string]any{"trust": t}}
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, trustDoc{Trust: t})
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
	st, _, err := s.trustStore()
	if err != nil {
		return err
	}
	found, err := s.cfg.Sys.RevokeTrust(st.Project().Dir, req.ConfirmSharedWrite)
	if err != nil {
		return err
	}
	snap, err := st.Read()
	if err != nil {
		return err
	}
	t, err := gates.TrustOf(s.cfg.Sys, snap)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, trustDoc{Trust: t, Revoked: &found})
	return nil
}
