package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/session"
)

// CheckInput is one action to judge.
type CheckInput struct {
	Action string `json:"action" jsonschema:"the action in the rules' grammar with a concrete command, path, domain or tool: shell:COMMAND LINE, read:PATH, write:PATH, web:DOMAIN or mcp:SERVER/TOOL, e.g. 'shell:git push --force origin'"`
	Agent  string `json:"agent,omitempty" jsonschema:"an agent name (claude, codex, gemini, cursor, copilot, ...): also say whether that agent can express the deciding rule, at user and project level; leave out for none"`
}

// ServerList is `charter mcp-servers list --json`.
type ServerList struct {
	Servers []session.ServerRow `json:"servers"`
}

// governanceBackend is a Backend that reads permissions and MCP servers.
type governanceBackend interface {
	Permissions(ctx context.Context, dir string) (session.Permissions, error)
	CheckPermission(ctx context.Context, dir, action, agent string) (session.PermCheck, error)
	MCPServers(ctx context.Context, dir string) (ServerList, error)
}

// Permissions is `charter permissions list --json` for the client's directory.
func (l *Local) Permissions(ctx context.Context, dir string) (session.Permissions, error) {
	p, err := l.session(dir).Permissions(ctx)
	if err != nil {
		return session.Permissions{}, err
	}
	return *p, nil
}

// CheckPermission is `charter permissions check ACTION [--agent A] --json`.
func (l *Local) CheckPermission(ctx context.Context, dir, action, agent string) (session.PermCheck, error) {
	c, err := l.session(dir).CheckPermission(ctx, action, agent)
	if err != nil {
		return session.PermCheck{}, err
	}
	return *c, nil
}

// MCPServers is `charter mcp-servers list --json`.
func (l *Local) MCPServers(ctx context.Context, dir string) (ServerList, error) {
	rows, err := l.session(dir).MCPServers(ctx)
	return ServerList{Servers: rows}, err
}

// addGovernanceTools registers permissions_list, permissions_check and
// mcp_servers_list when the backend has them. They only read: an agent may
// learn what it may do, never change it.
func (s *Server) addGovernanceTools(readOnly *mcp.ToolAnnotations) {
	b, ok := s.b.(governanceBackend)
	if !ok {
		return
	}
	addTool(s, &mcp.Tool{
		Name: "permissions_list", Title: "List the permission rules", Annotations: readOnly,
		Description: "The permission rules in force here (`charter permissions list --json`): rules, deny then ask then allow, each with its verdict, rule (shell:PREFIX, read:GLOB, write:GLOB, web:DOMAIN, mcp:SERVER[/TOOL]), layer, origin file, and locked (the policy's deny and ask, which no lower layer can loosen); refused: rules a lower layer wrote that would loosen the policy and are not in force.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, dir string, in ListInput) (session.Permissions, error) {
		return b.Permissions(ctx, dir)
	})
	addTool(s, &mcp.Tool{
		Name: "permissions_check", Title: "Check an action", Annotations: readOnly,
		Description: "Whether an action passes (`charter permissions check ACTION --json`): verdict deny, ask, allow, or none when no rule matches and the agent's own default applies; rule: the rule that decides (deny beats ask beats allow), with its layer, file and lock. Ask this before a command the user may have forbidden, such as a force push.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, dir string, in CheckInput) (session.PermCheck, error) {
		return b.CheckPermission(ctx, dir, in.Action, in.Agent)
	})
	addTool(s, &mcp.Tool{
		Name: "mcp_servers_list", Title: "List the MCP servers", Annotations: readOnly,
		Description: "The MCP servers the layers and the policy declare (`charter mcp-servers list --json`): name, command and args or url, env and headers (environment values stay ${VAR}), layer and origin file, and projected: whether `charter apply` writes it into the agents' files, else reason: disabled, not_allowed (outside the policy's mcp.allowed) or untrusted (from a project not trusted yet).",
	}, func(ctx context.Context, req *mcp.CallToolRequest, dir string, in ListInput) (ServerList, error) {
		return b.MCPServers(ctx, dir)
	})
}
