package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/helpers/shell"
	"github.com/agentkit/charter/server"
)

// ServeCmd runs the loopback HTTP API and the settings hub of this scope.
type ServeCmd struct {
	Port        int           `name:"port" placeholder:"N" help:"Port on 127.0.0.1 (default: a random free port in 41000-41999)."`
	IdleTimeout time.Duration `name:"idle-timeout" default:"30m" placeholder:"DURATION" help:"Stop after this long without an authenticated API request, counted from the end of the last request, armed by the first one (default 30m; 0: never)."`
	Open        bool          `name:"open" help:"Open the settings hub in the browser; if a server of this scope already runs, open its hub. The token is in local-server.token beside the scope's settings.yaml (charter settings path names it), never printed."`
	Stop        bool          `name:"stop" help:"Stop the running server of this scope (exit 3 when none runs)."`
}

// stopWait bounds how long --stop waits for the server to finish: it lets
// requests in flight end first (up to 5 s).
const stopWait = 10 * time.Second

// readyDoc is what serve prints on stdout, as one line, with --json once
// it answers.
type readyDoc struct {
	Event    string     `json:"event"`
	URL      string     `json:"url"`
	Port     int        `json:"port"`
	PID      int        `json:"pid"`
	Scope    core.Scope `json:"scope"`
	Settings string     `json:"settings"`
}

// stoppedDoc is what `serve --stop --json` prints.
type stoppedDoc struct {
	Stopped bool   `json:"stopped"`
	URL     string `json:"url"`
	PID     int    `json:"pid"`
}

func (c *ServeCmd) Run(ctx context.Context, a *App) error {
	if c.Port < 0 || c.Port > 65535 {
		return errcode.Errorf(core.CodeUsage, "--port %d: want 1-65535, or leave it out for a random port", c.Port)
	}
	if c.IdleTimeout < 0 {
		return errcode.Errorf(core.CodeUsage, "--idle-timeout %s: want 0 (never) or a positive duration", c.IdleTimeout)
	}
	if c.Stop && c.Open {
		return errcode.Errorf(core.CodeUsage, "--stop and --open contradict each other: give one of them")
	}
	sc, err := a.Scope()
	if err != nil {
		return err
	}
	if c.Stop {
		return c.stop(ctx, a, sc)
	}
	// Server state is not guarded, but a shared scope means every profile
	// would find this server and its token.
	if link, err := a.Sys.SharedLink(sc.Path); err == nil && link != "" {
		fmt.Fprintf(a.Stderr, "charter: warning: %s lies behind %s, a link agent-switch shares between profiles: every profile will see this server's token\n", inert.Line(sc.Path), inert.Line(link))
	}
	// The server serves the project of the directory it starts in (or
	// --project-dir); in a repository without one yet, the hub can create it.
	project, err := a.Project()
	if err != nil {
		return err
	}
	projectRoot := ""
	if project == nil {
		projectRoot, _ = a.session().CreateRoot() // none: the hub offers no project layer
	}
	srv, err := server.Open(server.Config{
		Sys:         a.Sys,
		Scope:       sc,
		Project:     project,
		ProjectRoot: projectRoot,
		Version:     a.Build().Version,
		Port:        c.Port,
		IdleTimeout: c.IdleTimeout,
		Log:         inert.Writer(a.Stderr), // its warnings name files
	})
	var running *server.RunningError
	if errors.As(err, &running) && c.Open {
		return c.reuse(ctx, a, sc)
	}
	if err != nil {
		return err
	}
	file := a.session().SettingsFile(sc)
	fmt.Fprintf(a.Stderr, "charter: serving settings %s (%s)\n", inert.Line(file), inert.Line(describeScope(sc)))
	if project != nil {
		fmt.Fprintf(a.Stderr, "charter: with the project %s\n", inert.Line(project.Dir))
	}
	a.noteOtherScope(sc)
	if a.JSON {
		line, err := json.Marshal(readyDoc{Event: "ready", URL: srv.URL(), Port: srv.Port(), PID: os.Getpid(), Scope: sc, Settings: file})
		if err != nil {
			return fmt.Errorf("encode ready line: %w", err)
		}
		fmt.Fprintf(a.Stdout, "%s\n", line)
	} else {
		fmt.Fprintf(a.Stdout, "serving %s (pid %d): stop it with Ctrl-C or `charter serve --stop`\n", srv.URL(), os.Getpid())
	}
	// The token never goes to output: the way in is `serve --open`.
	fmt.Fprintf(a.Stderr, "charter settings hub: %s (open it with `charter serve --open`)\n", srv.URL())
	if c.Open {
		// open=1 tells the tab it owns this server: the hub sends the
		// shutdown beacon when that tab goes away. A tab opened later by
		// `serve --open` beside this server has no such flag.
		if err := a.openHub(sc, srv.HubURL()+"&open=1", srv.Port()); err != nil {
			// The server serves on: the way in is printed instead.
			fmt.Fprintf(a.Stderr, "charter: %s\n", inert.Body(a.message(err)))
		}
	}
	return srv.Serve(ctx)
}

// reuse opens the hub of the server that already runs for this scope.
func (c *ServeCmd) reuse(ctx context.Context, a *App, sc core.Scope) error {
	cl, err := server.Connect(a.Sys, sc)
	if err == nil {
		_, err = cl.Ping(ctx) // the token is the one it holds
	}
	if err != nil {
		return err
	}
	d := cl.Discovery
	if err := a.openHub(sc, cl.HubURL(), d.Port); err != nil {
		return err
	}
	doc := readyDoc{Event: "opened", URL: d.BaseURL(), Port: d.Port, PID: d.PID, Scope: sc, Settings: a.session().SettingsFile(sc)}
	return a.emit(doc, func(w io.Writer) {
		fmt.Fprintf(w, "opened the hub of the charter server already running at %s (pid %d)\n", d.BaseURL(), d.PID)
	})
}

// stop stops the running server of this scope and waits until it is gone.
func (c *ServeCmd) stop(ctx context.Context, a *App, sc core.Scope) error {
	cl, err := server.Connect(a.Sys, sc)
	if err != nil {
		return err
	}
	sctx, cancel := context.WithTimeout(ctx, stopWait)
	defer cancel()
	if err := cl.Stop(sctx); err != nil {
		return err
	}
	d := cl.Discovery
	doc := stoppedDoc{Stopped: true, URL: d.BaseURL(), PID: d.PID}
	return a.emit(doc, func(w io.Writer) {
		fmt.Fprintf(w, "stopped the charter server at %s (pid %d)\n", d.BaseURL(), d.PID)
	})
}

// openHub writes the scope's open page for hubURL and opens it. The
// opener sees a file:// URL only: the token stays in the 0600 page. When
// no browser opened, the error says so and how to reach the hub by hand.
func (a *App) openHub(sc core.Scope, hubURL string, port int) error {
	page, err := server.WriteOpenPage(a.Sys, sc, hubURL)
	if err != nil {
		return fmt.Errorf("cannot hand the hub to the browser: %w", err)
	}
	open := a.OpenURL
	if open == nil {
		open = openBrowser
	}
	if err := open(page); err != nil {
		return errcode.Errorf(core.CodeNoBrowser, "no browser opened (%v): %s", err, reachHub(a.Sys, sc, page, port))
	}
	return nil
}

// reachHub says how to open the hub without `serve --open`: the page that
// holds the token, or the address plus the token file, on this machine or
// through an SSH tunnel. The token itself is never printed: output lands
// in terminals' scrollback, logs and CI.
func reachHub(sys *core.System, sc core.Scope, page string, port int) string {
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	token := server.TokenPath(sys, sc)
	return fmt.Sprintf("open the hub yourself:\n"+
		"  on this machine, open %s in a browser (a page only you can read, which carries the key);\n"+
		"  or open %s#token= followed by the content of %s;\n"+
		"  from another machine, forward the port with `ssh -L %d:127.0.0.1:%d THIS-HOST`, then open %s#token= there, followed by the output of `ssh THIS-HOST cat %s`",
		page, url, token, port, port, url, shell.Quote(token))
}

// describeScope names a scope for people: "scope profile claude/work".
func describeScope(sc core.Scope) string {
	if sc.Kind == core.ScopeProfile {
		return "scope profile " + sc.Profile.Name()
	}
	return "scope " + sc.Kind
}

// noteOtherScope warns when --config-root chose this scope while a
// profile is active: commands run in that profile without the flag use
// the profile's file, so their `settings path` and `ping --server` would
// disagree with the hub.
func (a *App) noteOtherScope(sc core.Scope) {
	other, file, ok := a.session().OtherProfileScope(sc)
	if !ok {
		return
	}
	fmt.Fprintf(a.Stderr, "charter: note: profile %s is active, and commands run in it without --config-root use %s, not this server's file: pass --config-root %s to them too\n",
		inert.Line(other.Profile.Name()), inert.Line(file), inert.Line(sc.Root.Path))
}

// openerWait is how long openBrowser waits for the opener's verdict. An
// opener that fails (xdg-open on a box without a browser) says so at
// once; one still running then has started a browser that keeps it.
const openerWait = 3 * time.Second

// openBrowser hands url to the system's opener and reports its failure:
// missing, or exiting with an error.
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
	name := filepath.Base(cmd.Path)
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf("%s is not installed", name)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%s failed: %w", name, err)
		}
	case <-time.After(openerWait):
	}
	return nil
}
