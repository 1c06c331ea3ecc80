package commands

// message is err's text for people: core's words, the same the MCP server
// gives (core.System.ErrorMessage).
func (a *App) message(err error) string { return a.Sys.ErrorMessage(err) }
