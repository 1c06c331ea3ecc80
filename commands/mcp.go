package commands

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/mcpserver"
)

// McpCmd serves charter to agents over the Model Context Protocol, on
// stdin and stdout, read-only.
type McpCmd struct {
	PrintConfig string `name:"print-config" placeholder:"claude|codex|gemini" help:"Print how to register charter with an agent for every project, then exit."`
}

func (c *McpCmd) Run(ctx context.Context, a *App) error {
	if c.PrintConfig != "" {
		// The program as a user-level hook names it, never a path in Go's
		// build cache.
		reg, err := a.session().Registration(ctx)
		if err != nil {
			return err
		}
		sn, err := mcpserver.UserSnippet(c.PrintConfig, mcpserver.UserEntry(reg.Program, reg.Scope))
		if err != nil {
			return err
		}
		return a.emit(sn, func(w io.Writer) { fmt.Fprint(w, inert.Body(sn.Text)) })
	}
	sc, err := a.Scope()
	if err != nil {
		return err
	}
	// One inotify descriptor keeps the content library current for the
	// session's life (nil where there is none: files are stamped instead).
	watch := fsys.NewDirWatch(a.Sys.Fs)
	defer watch.Close()
	srv := mcpserver.New(&mcpserver.Local{Sys: a.Sys, Scope: sc, Version: a.Build().Version, ProjectDir: a.projectFlag, NoProject: a.noProject, Watch: watch},
		mcpserver.Options{Version: a.Build().Version, Getwd: a.Sys.Getwd, Paths: a.Sys.Paths, Message: a.Sys.ErrorMessage})
	// stdout is the protocol's: nothing else may be printed there.
	err = srv.Run(ctx, &mcpserver.StdioTransport{In: a.Stdin, Out: a.Stdout})
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil // SIGINT or SIGTERM: a clean stop, as for serve
	}
	return err
}
