// Package commands is charter's command line: the Kong grammar and the thin
// layer that parses, calls core and renders the result.
package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alecthomas/kong"
	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/inert"
	"github.com/agentkit/charter/core/session"
	"github.com/agentkit/charter/helpers/shell"
	"github.com/agentkit/charter/server"
)

// Build identifies this binary; the release build sets it through ldflags.
type Build struct {
	Version string
	Commit  string
	Date    string // build time, shown in --help
	Module  string // a build from source: the pseudo-version Go recorded, shown beside dev
}

// String is the build line shown in --help.
func (b Build) String() string {
	s := fmt.Sprintf("charter %s (commit %s", b.Version, b.Commit)
	if b.Date != "" {
		s += ", built " + b.Date
	}
	return s + ")"
}

// CLI is the grammar.
type CLI struct {
	ConfigRoot *string     `name:"config-root" group:"global" placeholder:"PATH" help:"Config root chosen by a host (overrides AGENTKIT_CONFIG_HOME)." complete:"dir"`
	JSON       bool        `name:"json" group:"global" help:"Print exactly one JSON document on stdout."`
	Version    versionFlag `name:"version" group:"global" short:"v" help:"Print the version (with --json: name, version, commit, capabilities)."`
	ProjectDir *string     `name:"project-dir" group:"global" placeholder:"DIR" help:"The project whose .charter/ settings apply (overrides CHARTER_PROJECT_DIR and discovery from the working directory)."`
	NoProject  bool        `name:"no-project" group:"global" help:"Ignore the project layers (.charter/settings.yaml, .charter/settings.local.yaml)."`

	// Listed after the others in the help, under their own heading.
	Completion CompletionCmd `cmd:"" group:"more" help:"Print a shell completion script: bash, zsh, fish or powershell."`
	Help       HelpCmd       `cmd:"" group:"more" help:"Show the help of charter or of one command, e.g. charter help settings set."`
	Man        ManCmd        `cmd:"" group:"more" help:"Print charter's man page (roff): charter man | man -l -."`
	VersionCmd VersionCmd    `cmd:"" group:"more" name:"version" help:"Print the version, as --version does (with --json: name, version, commit, capabilities)."`
	Complete   CompleteCmd   `cmd:"" name:"__complete" hidden:"" help:"Complete a command line (the completion scripts call it)."`

	Detect   DetectCmd   `cmd:"" help:"Detect the agent-switch companion."`
	Dismiss  DismissCmd  `cmd:"" help:"Dismiss a recommendation for good."`
	Ping     PingCmd     `cmd:"" help:"Describe this charter: version, profile, config root, scope, capabilities."`
	Settings SettingsCmd `cmd:"" help:"Read and change the settings of this scope."`
	Serve    ServeCmd    `cmd:"" help:"Serve the loopback HTTP API and the settings hub for this scope."`
	Apply    ApplyCmd    `cmd:"" help:"Render this scope's settings into the instruction file each agent reads."`
	Mcp      McpCmd      `cmd:"" help:"Serve charter to agents over the Model Context Protocol on stdio, read-only."`
	Doctor   DoctorCmd   `cmd:"" help:"Check the whole setup: companion, profile, config root, settings files, shared links, server, agent files."`
	Gate     GateCmd     `cmd:"" help:"Run the quality gates; the agents' hooks that enforce them."`
	Trust    TrustCmd    `cmd:"" help:"Trust the project's own gate commands after showing them (--revoke, --list)."`
	Agents   AgentsCmd   `cmd:"" help:"List the agents charter knows, where each keeps rules, skills, commands and subagents, and what each reads (--json: the whole table)."`
	Profiles ProfilesCmd `cmd:"" help:"List agent-switch's profiles with charter's settings for each; move settings after a rename."`

	Rules     RulesCmd     `cmd:"" help:"List, show and scaffold the rules charter projects into the agents."`
	Skills    SkillsCmd    `cmd:"" help:"List, show and scaffold the skills charter projects into the agents."`
	Commands  CommandsCmd  `cmd:"" help:"List, show and scaffold the slash commands charter projects into the agents."`
	Subagents SubagentsCmd `cmd:"" help:"List, show and scaffold the subagents charter projects into the agents."`
	Sources   SourcesCmd   `cmd:"" help:"Take a team's rules, skills, commands and subagents from a git repository, pinned (add, update, list, remove)."`
	Import    ImportCmd    `cmd:"" help:"Turn an agent's rules, skills, commands and subagents (or a .rulesync/ or .ruler/ folder) into charter sources."`
	Uninstall UninstallCmd `cmd:"" help:"Take charter out of the agents' files: blocks, hook and MCP entries, projected files; put back the files import took over."`

	Permissions PermissionsCmd `cmd:"" help:"List the permission rules in force and check an action against them."`
	McpServers  McpServersCmd  `cmd:"" name:"mcp-servers" help:"List the MCP servers charter projects into the agents, and why a server is not projected."`
}

// App is what every command's Run receives.
type App struct {
	Sys    *core.System
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	JSON   bool
	// Terminal reports whether a stream is a terminal: colour and prompts
	// are for people only. Tests swap it for a fake terminal.
	Terminal func(stream any) bool
	// Interactive reports whether a person can answer a prompt.
	Interactive func() bool
	// OpenURL opens the hub for `serve --open`; nil means the system browser.
	OpenURL func(url string) error

	// build is resolved from Go's build info at first use (Build): a
	// command that prints no version does not read it.
	build     Build
	buildOnce sync.Once

	rootFlag    *string
	projectFlag *string
	noProject   bool
	// sess is this run's resolution: scope, project, policy (runParsed).
	sess *session.Session
	// interruptHolds counts programs that own SIGINT (holdInterrupt).
	interruptHolds atomic.Int32
	// armSignals installs SIGINT and SIGTERM's handlers when a command
	// installs them late (replaysFirst); nil when they are installed at
	// start, or not at all.
	armSignals func()
}

// Build is this binary's version, commit and build time.
func (a *App) Build() Build {
	a.buildOnce.Do(func() { a.build = a.build.resolved() })
	return a.build
}

// Scope resolves this run's config root and scope. A root a host chose
// (flag or variable) must have an existing parent: charter creates the
// root itself on the first write, never a whole tree a typo made up.
func (a *App) Scope() (core.Scope, error) { return a.session().Scope() }

// session is this run's resolution, made once the flags are parsed.
func (a *App) session() *session.Session {
	if a.sess == nil {
		a.sess = a.sessionFrom("")
	}
	return a.sess
}

// sessionFrom is a session whose project is looked for from dir ("": the
// working directory): a Stop hook's, from the agent session's folder.
func (a *App) sessionFrom(dir string) *session.Session {
	return session.New(a.Sys, session.Options{
		RootFlag: a.rootFlag, CheckRoot: a.checkHostRoot,
		ProjectDir: a.projectFlag, NoProject: a.noProject, From: dir,
		Warn:         func(msg string) { fmt.Fprintf(a.Stderr, "charter: warning: %s\n", inert.Body(msg)) },
		FetchSources: true,
		Version:      func() string { return a.Build().Version },
		Hub:          server.Hub{},
	})
}

func (a *App) checkHostRoot(root core.ConfigRoot) error {
	given := "--config-root " + root.Path
	if root.Source == core.SourceEnv {
		given = core.ConfigHomeVar + "=" + root.Path
	}
	if fi, err := a.Sys.Fs.Stat(root.Path); err == nil {
		if !fi.IsDir() {
			return errcode.Errorf(core.CodeUsage, "%s: %s is a file, not a directory: give a directory", given, root.Path)
		}
		return nil
	}
	parent := a.Sys.Paths.Dir(root.Path)
	fi, err := a.Sys.Fs.Stat(parent)
	switch {
	case err == nil && !fi.IsDir():
		return errcode.Errorf(core.CodeUsage, "%s: %s is a file, not a directory: give a directory whose parent exists", given, parent)
	case err != nil:
		return errcode.Errorf(core.CodeUsage, "%s: its parent %s does not exist: create it first (mkdir -p %s), or check the path for a typo", given, parent, shell.Quote(parent))
	}
	return nil
}

// Project finds this run's project (SPEC §9): nil when there is none or
// --no-project was given.
func (a *App) Project() (*core.Project, error) { return a.session().Project() }

// Main runs charter and returns its exit code.
func Main(ctx context.Context, build Build, args []string, stdin io.Reader, stdout, stderr io.Writer, environ []string, fs afero.Fs) (code int) {
	return int(newApp(build, stdin, stdout, stderr, environ, fs, args).run(ctx, args))
}

func newApp(build Build, stdin io.Reader, stdout, stderr io.Writer, environ []string, fs afero.Fs, args []string) *App {
	a := &App{
		Sys:      session.NewSystem(fs, environ, time.Now, os.Getwd),
		Stdin:    stdin,
		Stdout:   stdout,
		Stderr:   stderr,
		JSON:     jsonRequested(args),
		build:    build,
		Terminal: isTerminal,
	}
	a.Interactive = func() bool { return a.Terminal(a.Stdin) && a.Terminal(a.Stderr) }
	a.Sys.Warn = a.warnOnce()
	return a
}

// warnOnce prints each of core's warnings once per run on stderr: a run
// may find its project more than once.
func (a *App) warnOnce() func(string) {
	var mu sync.Mutex
	seen := map[string]bool{}
	return func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		if !seen[msg] {
			seen[msg] = true
			fmt.Fprintf(a.Stderr, "charter: warning: %s\n", inert.Body(msg))
		}
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
	defer func() {
		if r := recover(); r != nil {
			exit, ok := r.(*exitError)
			if !ok {
				panic(r)
			}
			code = a.fail(exit)
		}
	}()
	if len(args) == 0 {
		args = []string{"--help"} // bare charter shows the help, as git does
	}
	// --version alone needs no grammar: hosts probe it before every use.
	if versionOnly(args) {
		if err := a.printVersion(); err != nil {
			return a.fail(err)
		}
		return ExitOK
	}
	// charter's own help lists the commands, not their flags: a grammar of
	// the command tree alone renders the same text.
	if rootHelpOnly(args, a.JSON) {
		if a.printRootHelp() {
			return ExitOK
		}
		// Its --help prints and exits; anything else falls through.
		if parser, err := a.parser(ctx, reflect.New(helpTree.Get()).Interface()); err == nil {
			_, _ = parser.Parse(args)
		}
	}
	// A command path and its words alone need no grammar at all.
	if cmd, g, ok := directCommand(args); ok {
		return a.runWith(ctx, g.ConfigRoot, g.ProjectDir, g.NoProject, func() error { return cmd.Run(ctx, a) })
	}
	return a.runKong(ctx, args)
}

// runKong parses args with Kong. Apart from run, so that run's frame, on
// the stack of every command, holds no CLI: a deeper first stack grows
// sooner, and each growth copies it (issue 39).
func (a *App) runKong(ctx context.Context, args []string) ExitCode {
	// Most runs name one command: a grammar of that command alone costs a
	// fraction of the whole one to build and walk, and start-up is most of
	// a run. Help, completion and every parse error take the whole grammar.
	if cmd, ok := quickCommand(args); ok {
		pruned := reflect.New(cmd)
		if parser, err := a.parser(ctx, pruned.Interface()); err == nil {
			if kctx, err := parser.Parse(args); err == nil {
				var cli CLI
				globals(pruned.Elem(), reflect.ValueOf(&cli).Elem())
				return a.runParsed(ctx, kctx, &cli)
			}
		}
	}
	var cli CLI
	parser, err := a.parser(ctx, &cli)
	if err != nil {
		return a.fail(err)
	}
	kctx, err := parser.Parse(args)
	if err != nil {
		// What Kong could not parse is a usage error (Kong's own status would
		// be 80), said in the user's words; an error a hook of ours raised
		// keeps its code.
		if errcode.Of(err) == core.CodeInternal {
			err = usageError(err, args, parser.Model)
		}
		return a.fail(err)
	}
	return a.runParsed(ctx, kctx, &cli)
}

func (a *App) runParsed(ctx context.Context, kctx *kong.Context, cli *CLI) ExitCode {
	return a.runWith(ctx, cli.ConfigRoot, cli.ProjectDir, cli.NoProject, func() error { return kctx.Run() })
}

// runWith runs a parsed command under the global flags.
func (a *App) runWith(ctx context.Context, root, project *string, noProject bool, run func() error) ExitCode {
	a.rootFlag = root
	a.projectFlag, a.noProject = project, noProject
	a.Sys, a.sess = a.Sys.WithConfigRoot(root), nil
	if err := run(); err != nil {
		return a.fail(stopped(ctx, err))
	}
	return ExitOK
}

// stopped says a run a signal cancelled in the user's words rather than
// as "context canceled"; any other error stays as it is.
func stopped(ctx context.Context, err error) error {
	if !errors.Is(err, context.Canceled) || ctx.Err() == nil {
		return err
	}
	why := "cancelled"
	if c := context.Cause(ctx); c != nil && c != context.Canceled {
		why = c.Error()
	}
	return errcode.Errorf(core.CodeInternal, "stopped (%s) before the command finished: no file is left half-written; run it again", why)
}

// parser builds the Kong parser of grammar, the CLI or a part of it.
func (a *App) parser(ctx context.Context, grammar any) (*kong.Kong, error) {
	k, err := kong.New(grammar,
		kong.Name(core.Name),
		kong.Description(charterSummary), // the build line is added by helpPrinter
		kong.Writers(a.Stdout, a.Stderr),
		kong.Exit(func(c int) { panic(exitQuietly(ExitCode(c))) }),
		kong.Bind(a),
		kong.BindTo(ctx, (*context.Context)(nil)),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Help(a.helpPrinter),
		kong.Groups{"more": "More:", "global": "Global flags:"},
	)
	if err != nil {
		return nil, err
	}
	// A command's help lists its own flags first, then the global ones
	// under their heading; Kong's own --help joins them.
	for _, f := range k.Model.Flags {
		if f.Group == nil {
			f.Group = globalGroup
		}
	}
	return k, nil
}

// charterSummary is the first paragraph of charter's help and man page.
const charterSummary = "charter governs what AI coding agents do inside the active account: skills, rules, commands and quality gates."

var globalGroup = &kong.Group{Key: "global", Title: "Global flags:"}

// fail is the one way out of Main with an error: it prints err once, to
// stderr, and with --json also as a document on stdout. Its code decides
// the exit status, unless it is an *exitError, which says the status and
// what is left to print.
func (a *App) fail(err error) ExitCode {
	status, _ := exitFor(errcode.Of(err))
	var exit *exitError
	if errors.As(err, &exit) {
		status = exit.status
		if exit.err == nil {
			return status
		}
	}
	msg := a.message(err)
	// Messages name files and quote values: shown, never obeyed. The JSON
	// document below keeps them exact.
	fmt.Fprintf(a.Stderr, "%s %s\n", paint(a.colorFor(a.Stderr), ansiError, "charter:"), inert.Body(msg))
	var ue *cliUsageError
	if errors.As(err, &ue) && ue.usage != "" {
		fmt.Fprintf(a.Stderr, "usage: %s\n", ue.usage)
	}
	if a.JSON && (exit == nil || !exit.printed) {
		a.writeJSON(errcode.NewBody(err, msg).Document())
	}
	return status
}
