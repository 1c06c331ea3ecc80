package commands

import (
	"embed"
	"fmt"
	"strings"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
)

//go:embed completions
var completionScripts embed.FS

// shells maps each shell to its script; every script calls `charter
// __complete` (complete.go) and so completes what the grammar allows.
var shells = []struct{ name, file string }{
	{"bash", "completions/charter.bash"},
	{"zsh", "completions/charter.zsh"},
	{"fish", "completions/charter.fish"},
	{"powershell", "completions/charter.ps1"},
}

// CompletionCmd prints a shell's completion script.
type CompletionCmd struct {
	Shell string `arg:"" help:"bash, zsh, fish or powershell." complete:"shell"`
}

func (c *CompletionCmd) Run(a *App) error {
	var names []string
	for _, s := range shells {
		if strings.EqualFold(c.Shell, s.name) {
			data, err := completionScripts.ReadFile(s.file)
			if err != nil {
				return fmt.Errorf("read the %s script: %w", s.name, err)
			}
			_, err = a.Stdout.Write(data)
			return err
		}
		names = append(names, s.name)
	}
	return errcode.Errorf(core.CodeUsage, "no completion for the shell %q: choose %s", c.Shell, orList(names))
}
