package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/session"
)

// SourceList is `charter sources list --json`.
type SourceList struct {
	Sources []session.SourceEntry `json:"sources"`
}

// sourcesBackend is a Backend that can list shared sources.
type sourcesBackend interface {
	SourcesList(ctx context.Context, dir string) (SourceList, error)
}

// SourcesList lists the shared sources declared for the client's
// directory, from the locks and the cache alone: MCP never fetches.
func (l *Local) SourcesList(ctx context.Context, dir string) (SourceList, error) {
	es, err := l.session(dir).SourcesList(ctx)
	return SourceList{Sources: es}, err
}

// addSourcesTool registers sources_list when the backend has it.
func (s *Server) addSourcesTool(readOnly *mcp.ToolAnnotations) {
	b, ok := s.b.(sourcesBackend)
	if !ok {
		return
	}
	addTool(s, &mcp.Tool{
		Name: "sources_list", Title: "List the shared sources", Annotations: readOnly,
		Description: "The git repositories this scope and project take rules, skills, commands and subagents from (`charter sources list --json`): name, layer, url, ref, path, the pinned commit and tree sha256, whether the pinned tree is in the cache, and update: whether the ref named another commit at the last fetch (nothing is fetched to answer).",
	}, func(ctx context.Context, req *mcp.CallToolRequest, dir string, in ListInput) (SourceList, error) {
		return b.SourcesList(ctx, dir)
	})
}
