package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/server"
)

// ServeCmd runs the loopback HTTP API and the settings hub of this scope.
type ServeCmd struct {
	Port        int           `name:"port" placeholder:"N" help:"Port on 127.0.0.1 (default: a random free port in 41000-41999)."`
	IdleTimeout time.Duration `name:"idle-timeout" default:"30m" placeholder:"DURATION" help:"Stop after this long without an authenticated API request (0: never)."`
	Open        bool          `name:"open" help:"Open the settings hub in the browser."`
}

// readyDoc is the one line serve prints on stdout once it answers.
type readyDoc struct {
	Event string     `json:"event"`
	URL   string     `json:"url"`
	Port  int        `json:"port"`
	PID   int        `json:"pid"`
	Scope core.Scope `json:"scope"`
}

func (c *ServeCmd) Run(ctx context.Context, a *App) error {
	if c.Port < 0 || c.Port > 65535 {
		return &core.UsageError{Msg: fmt.Sprintf("--port %d: want 1-65535, or leave it out for a random port", c.Port)}
	}
	if c.IdleTimeout < 0 {
		return &core.UsageError{Msg: fmt.Sprintf("--idle-timeout %s: want 0 (never) or a positive duration", c.IdleTimeout)}
	}
	sc, err := a.Scope()
	if err != nil {
		return err
	}
	// Server state is not guarded, but a shared scope means every profile
	// would find this server and its token.
	if link, err := a.Sys.SharedLink(sc.Path); err == nil && link != "" {
		fmt.Fprintf(a.Stderr, "charter: warning: %s lies behind %s, a link agent-switch shares between profiles: every profile will see this server's token\n", sc.Path, link)
	}
	srv, err := server.Open(server.Config{
		Sys:         a.Sys,
		Scope:       sc,
		Version:     a.Build.Version,
		Port:        c.Port,
		IdleTimeout: c.IdleTimeout,
		Log:         a.Stderr,
	})
	if err != nil {
		return err
	}
	line, err := json.Marshal(readyDoc{Event: "ready", URL: srv.URL(), Port: srv.Port(), PID: os.Getpid(), Scope: sc})
	if err != nil {
		return fmt.Errorf("encode ready line: %w", err)
	}
	fmt.Fprintf(a.Stdout, "%s\n", line)
	fmt.Fprintf(a.Stderr, "charter settings hub: %s\n", srv.HubURL())
	if c.Open {
		open := a.OpenURL
		if open == nil {
			open = openBrowser
		}
		// open=1 tells the tab it owns this server: the hub sends the
		// shutdown beacon when that tab goes away. The printed link has no
		// such flag, so a tab opened from it leaves the server running.
		if err := open(srv.HubURL() + "&open=1"); err != nil {
			fmt.Fprintf(a.Stderr, "charter: warning: open the browser: %v\n", err)
		}
	}
	return srv.Serve(ctx)
}

// openBrowser hands url to the system's opener without waiting for it.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap it
	return nil
}
