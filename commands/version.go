package commands

import (
	"fmt"
	"io"

	"github.com/alecthomas/kong"

	"github.com/agentkit/charter/core"
)

// versionFlag prints the version and stops, before commands are required.
type versionFlag bool

// versionDoc is what --version --json prints. Hosts read capabilities from
// it before they pass --config-root.
type versionDoc struct {
	Name         string          `json:"name"`
	Version      string          `json:"version"`
	Commit       string          `json:"commit"`
	Capabilities map[string]bool `json:"capabilities"`
}

func (versionFlag) BeforeReset(k *kong.Kong, a *App) error {
	if err := a.printVersion(); err != nil {
		return err
	}
	k.Exit(0)
	return nil
}

// VersionCmd is `charter version`: what --version prints.
type VersionCmd struct{}

func (c *VersionCmd) Run(a *App) error { return a.printVersion() }

// printVersion prints `charter 1.2.3`, or with --json the document hosts
// read capabilities from.
func (a *App) printVersion() error {
	return a.emit(versionDoc{
		Name:         core.Name,
		Version:      a.Build.Version,
		Commit:       a.Build.Commit,
		Capabilities: core.Capabilities(),
	}, func(w io.Writer) { fmt.Fprintf(w, "%s %s\n", core.Name, a.Build.Version) })
}
