// Command charter configures what AI coding agents do in the active account.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/commands"
)

// Set by the release build (-ldflags "-X main.version=… -X main.commit=… -X main.date=…").
var (
	version string
	commit  string
	date    string
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := commands.Main(ctx, commands.Build{Version: version, Commit: commit, Date: date}, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Environ(), afero.NewOsFs())
	stop()
	os.Exit(code)
}
