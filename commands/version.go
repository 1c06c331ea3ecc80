package commands

import (
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/session"
)

// versionFlag prints the version and stops, before commands are required.
type versionFlag bool

// versionDoc is what --version --json prints. Hosts read capabilities from
// it before they pass --config-root.
type versionDoc struct {
	Name         string          `json:"name"`
	Version      string          `json:"version"`
	Commit       string          `json:"commit"`
	Module       string          `json:"module,omitempty"` // beside dev: the pseudo-version Go recorded
	Capabilities map[string]bool `json:"capabilities"`
}

func (versionFlag) BeforeReset(k *kong.Kong, a *App, ctx *kong.Context) error {
	if err := leadingVersion(ctx); err != nil {
		return err
	}
	if err := a.printVersion(); err != nil {
		return err
	}
	k.Exit(0)
	return nil
}

// VersionCmd is `charter version`: what --version prints.
type VersionCmd struct{}

func (c *VersionCmd) Run(a *App) error { return a.printVersion() }

// versionOnly reports whether args are -v, --version or version, with
// --json or not, and nothing else: what the whole grammar would answer by
// printing the version, without building it.
func versionOnly(args []string) bool {
	version := 0
	for _, arg := range args {
		switch arg {
		case "-v", "--version", "version":
			version++
		case "--json", "--json=true":
		default:
			return false
		}
	}
	return version == 1 && len(args) <= 2
}

// printVersion prints `charter 1.2.3`, or with --json the document hosts
// read capabilities from.
func (a *App) printVersion() error {
	return a.emit(versionDoc{
		Name:         core.Name,
		Version:      a.Build().Version,
		Commit:       a.Build().Commit,
		Module:       a.Build().Module,
		Capabilities: session.Capabilities(),
	}, func(w io.Writer) {
		if a.Build().Module != "" {
			fmt.Fprintf(w, "%s %s (%s)\n", core.Name, a.Build().Version, a.Build().Module)
			return
		}
		fmt.Fprintf(w, "%s %s\n", core.Name, a.Build().Version)
	})
}

// leadingVersion refuses -v/--version after a command word: `charter
// settings get rules.tier -v` is a slip (a verbose flag?), and printing the
// version there would run nothing while looking like success. Only a
// leading -v or --version (or `charter version`) prints the version.
func leadingVersion(ctx *kong.Context) error {
	var cmd *kong.Node
	for _, p := range ctx.Path {
		switch {
		case p.Command != nil:
			cmd = p.Command
		case p.Flag != nil && p.Flag.Name == "version" && cmd != nil:
			flag := "--version"
			if slices.Contains(ctx.Args, "-v") {
				flag = "-v"
			}
			return &cliUsageError{
				msg:   fmt.Sprintf("%s is not a flag of `%s`: to print the version, run `charter --version` (or `charter version`) on its own", flag, commandText(cmd)),
				usage: usageLine(cmd),
			}
		}
	}
	return nil
}

// resolved fills a missing version and commit from the Go build info.
func (b Build) resolved() Build {
	if b.Version != "" && b.Commit != "" {
		return b // a release build: nothing to ask Go
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil
	}
	return b.resolvedFrom(info)
}

// resolvedFrom is resolved with the build info given. A release tag that
// `go install …@v1.4.0` recorded is the version; a build from an untagged
// commit (Go records a pseudo-version such as v0.0.0-20261127093000-abcdef123456)
// or from a modified checkout is dev, with the pseudo-version beside it.
func (b Build) resolvedFrom(info *debug.BuildInfo) Build {
	if b.Version == "" {
		b.Version = "dev"
		if info != nil {
			switch v := info.Main.Version; {
			case v == "" || v == "(devel)":
			case pseudoVersion(v):
				b.Module = v
			default:
				b.Version = v
			}
		}
	}
	if b.Commit == "" {
		b.Commit = "unknown"
		if info != nil {
			for _, s := range info.Settings {
				if s.Key == "vcs.revision" {
					b.Commit = s.Value
				}
			}
		}
	}
	return b
}

// pseudoVersion reports whether v is what Go records for a commit no tag
// names (…-yyyymmddhhmmss-abcdefabcdef) or for a modified checkout (+dirty).
func pseudoVersion(v string) bool {
	base, meta, _ := strings.Cut(v, "+")
	if meta == "dirty" {
		return true
	}
	i := strings.LastIndexByte(base, '-')
	if i < 15 || len(base)-i-1 != 12 || !allIn(base[i+1:], "0123456789abcdef") {
		return false
	}
	return allIn(base[i-14:i], "0123456789") && strings.ContainsAny(base[i-15:i-14], "-.")
}

func allIn(s, set string) bool {
	for _, r := range s {
		if !strings.ContainsRune(set, r) {
			return false
		}
	}
	return true
}
