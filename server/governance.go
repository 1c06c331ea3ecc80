package server

import (
	"net/http"

	"github.com/agentkit/charter/core/session"
)

// governanceDoc is GET /api/v1/governance: the documents of `charter
// permissions list --json` and `charter mcp-servers list --json` in one.
type governanceDoc struct {
	Permissions *session.Permissions `json:"permissions"`
	Servers     []session.ServerRow  `json:"servers"`
}

// getGovernance lists the permission rules in force, with their layers and
// locks, and the MCP servers with whether apply projects each (SPEC §14).
func (s *Server) getGovernance(w http.ResponseWriter, r *http.Request) error {
	perms, err := s.sess.Permissions()
	if err != nil {
		return err
	}
	servers, err := s.sess.MCPServers()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, governanceDoc{Permissions: perms, Servers: servers})
	return nil
}
