package server

import "net/http"

// sourcesDoc is GET /api/v1/sources, as `charter sources list --json`.
type sourcesDoc struct {
	Sources any `json:"sources"`
}

// getSources lists the shared sources with their pins and whether the
// last fetch saw an update: read from the locks and the cache, the hub
// never fetches on its own (SPEC §15).
func (s *Server) getSources(w http.ResponseWriter, r *http.Request) error {
	es, err := s.sess.SourcesList(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, sourcesDoc{Sources: es})
	return nil
}
