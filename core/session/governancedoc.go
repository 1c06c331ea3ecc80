package session

import (
	"context"

	"github.com/agentkit/charter/core/apply"
)

// GovernanceDoc is the permission rules in force and the MCP servers, in
// one document (GET /api/v1/governance): those of `charter permissions
// list --json` and `charter mcp-servers list --json`.
type GovernanceDoc struct {
	Permissions *Permissions `json:"permissions"`
	Servers     []ServerRow  `json:"servers"`
}

// Governance reads the rules with their layers and locks, and the servers
// with whether apply projects each (SPEC §14).
func (s *Session) Governance(ctx context.Context) (GovernanceDoc, error) {
	if err := ctx.Err(); err != nil {
		return GovernanceDoc{}, err
	}
	perms, err := s.Permissions(ctx)
	if err != nil {
		return GovernanceDoc{}, err
	}
	servers, err := s.MCPServers(ctx)
	if err != nil {
		return GovernanceDoc{}, err
	}
	return GovernanceDoc{Permissions: perms, Servers: servers}, nil
}

// GovernanceText is the governance block in force, as apply writes it into
// the agents' files (MCP's charter://governance).
func (s *Session) GovernanceText(ctx context.Context) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	_, snap, err := s.Read()
	if err != nil {
		return "", err
	}
	lib, err := s.ActiveLibrary(ctx)
	if err != nil {
		return "", err
	}
	return string(apply.Render(snap, lib)), nil
}
