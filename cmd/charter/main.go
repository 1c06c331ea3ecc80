// Command charter configures what AI coding agents do in the active account.
package main

import (
	"os"

	"github.com/agentkit/charter/commands"
)

// Set by the release build (-ldflags "-X main.version=… -X main.commit=… -X main.date=…").
var (
	version string
	commit  string
	date    string
)

// commands.Run handles SIGINT and SIGTERM (commands.StopGrace).
func main() {
	os.Exit(commands.Run(commands.Build{Version: version, Commit: commit, Date: date}))
}
