package server

import "net/http"

// getGovernance lists the permission rules in force, with their layers and
// locks, and the MCP servers with whether apply projects each (SPEC §14).
func (s *Server) getGovernance(w http.ResponseWriter, r *http.Request) error {
	doc, err := s.sess.Governance(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, doc)
	return nil
}
