package coretest

import (
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolText is the text of an MCP tool result: its text parts, joined.
func ToolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
