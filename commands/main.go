// Package commands is charter's command line: the Kong grammar and the thin
// layer that parses, calls core and renders the result.
package commands

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime/debug"
	"slices"
	"time"

	"github.com/alecthomas/kong"
	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
)

// Build identifies this binary; the release build sets it through ldflags.
type Build struct {
	Version string
	Commit  string
	Date    string // build time, shown in --help
}

// String is the build line shown in --help.
func (b Build) String() string {
	s := fmt.Sprintf("charter %s (commit %s", b.Version, b.Commit)
	if b.Date != "" {
		s += ", built " + b.Date
	}
	return s + ")"
}

// resolved fills a missing version and commit from the Go build info.
func (b Build) resolved() Build {
	info, ok := debug.ReadBuildInfo()
	if b.Version == "" {
		b.Version = "dev"
		if ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
	}
	if b.Commit == "" {
		b.Commit = "unknown"
		if ok {
			for _, s := range info.Settings {
				if s.Key == "vcs.revision" {
					b.Commit = s.Value
				}
			}
		}
	}
	return b
}

// CLI is the grammar.
type CLI struct {
	ConfigRoot *string     `name:"config-root" placeholder:"PATH" help:"Config root chosen by a host (overrides AGENTKIT_CONFIG_HOME)."`
	JSON       bool        `name:"json" help:"Print exactly one JSON document on stdout."`
	Version    versionFlag `name:"version" help:"Print the version (with --json: name, version, commit, capabilities)."`
	ProjectDir *string     `name:"project-dir" placeholder:"DIR" help:"The project whose .charter/ settings apply (overrides CHARTER_PROJECT_DIR and discovery from the working directory)."`
	NoProject  bool        `name:"no-project" help:"Ignore the project layers (.charter/settings.yaml, .charter/settings.local.yaml)."`

	Detect   DetectCmd   `cmd:"" help:"Detect the agent-switch companion."`
	Dismiss  DismissCmd  `cmd:"" help:"Dismiss a recommendation for good."`
	Ping     PingCmd     `cmd:"" help:"Describe this charter: version, profile, config root, scope, capabilities."`
	Settings SettingsCmd `cmd:"" help:"Read and change the settings of this scope."`
	Serve    ServeCmd    `cmd:"" help:"Serve the loopback HTTP API and the settings hub for this scope."`
	Apply    ApplyCmd    `cmd:"" help:"Render this scope's settings into the instruction file each agent reads."`
	Mcp      McpCmd      `cmd:"" help:"Serve charter to agents over the Model Context Protocol on stdio, read-only."`
	Doctor   DoctorCmd   `cmd:"" help:"Check the whole setup: companion, profile, config root, settings files, shared links, server, agent files."`
}

// App is what every command's Run receives.
type App struct {
	Sys    *core.System
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	JSON   bool
	Build  Build
	// Interactive reports whether a person can answer a prompt.
	Interactive func() bool
	// OpenURL opens the hub for `serve --open`; nil means the system browser.
	OpenURL func(url string) error

	rootFlag    *string
	projectFlag *string
	noProject   bool
}

// Scope resolves this run's config root and scope.
func (a *App) Scope() (core.Scope, error) {
	return a.Sys.ResolveScope(a.rootFlag)
}

// Project finds this run's project (SPEC §9): nil when there is none or
// --no-project was given.
func (a *App) Project() (*core.Project, error) {
	return a.Sys.FindProject(a.projectFlag, a.noProject)
}

type kongExit int

// Main runs charter and returns its exit code.
func Main(ctx context.Context, build Build, args []string, stdin io.Reader, stdout, stderr io.Writer, environ []string, fs afero.Fs) (code int) {
	return int(newApp(build, stdin, stdout, stderr, environ, fs, args).run(ctx, args))
}

func newApp(build Build, stdin io.Reader, stdout, stderr io.Writer, environ []string, fs afero.Fs, args []string) *App {
	return &App{
		Sys:         core.NewSystem(fs, environ, time.Now, os.Getwd),
		Stdin:       stdin,
		Stdout:      stdout,
		Stderr:      stderr,
		JSON:        jsonRequested(args),
		Build:       build.resolved(),
		Interactive: func() bool { return isTerminal(stdin) && isTerminal(stderr) },
	}
}

// jsonRequested looks for --json before parsing, so that even a usage error
// comes out as a JSON document.
func jsonRequested(args []string) bool {
	if i := slices.Index(args, "--"); i >= 0 {
		args = args[:i]
	}
	return slices.Contains(args, "--json") || slices.Contains(args, "--json=true")
}

func (a *App) run(ctx context.Context, args []string) (code ExitCode) {
	var cli CLI
	parser, err := kong.New(&cli,
		kong.Name(core.Name),
		kong.Description(fmt.Sprintf("charter governs what AI coding agents do inside the active account: skills, rules, commands and quality gates.\n\n%s", a.Build)),
		kong.Writers(a.Stdout, a.Stderr),
		kong.Exit(func(c int) { panic(kongExit(c)) }),
		kong.Bind(a, a.Build),
		kong.BindTo(ctx, (*context.Context)(nil)),
		kong.Vars{"version": a.Build.Version},
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
	)
	if err != nil {
		return a.fail(err)
	}
	defer func() {
		if r := recover(); r != nil {
			c, ok := r.(kongExit)
			if !ok {
				panic(r)
			}
			code = ExitCode(c)
		}
	}()
	kctx, err := parser.Parse(args)
	if err != nil {
		// What Kong could not parse is a usage error (Kong's own status would
		// be 80); an error a hook of ours raised keeps its code.
		if core.ErrorCode(err) == core.CodeInternal {
			err = &core.UsageError{Msg: fmt.Sprintf("%s (see charter --help)", err)}
		}
		return a.fail(err)
	}
	a.rootFlag = cli.ConfigRoot
	a.projectFlag, a.noProject = cli.ProjectDir, cli.NoProject
	a.Sys.SetConfigRoot(cli.ConfigRoot)
	if err := kctx.Run(); err != nil {
		return a.fail(err)
	}
	return ExitOK
}

// fail prints err once: to stderr, and with --json also as a document on
// stdout. Its code alone decides the exit status.
func (a *App) fail(err error) ExitCode {
	code := core.ErrorCode(err)
	fmt.Fprintf(a.Stderr, "charter: %s\n", err)
	if a.JSON && !reported(err) {
		body := map[string]any{"code": code, "message": err.Error()}
		maps.Copy(body, core.ErrorExtras(err))
		a.writeJSON(map[string]any{"error": body})
	}
	status, _ := exitFor(code)
	return status
}
