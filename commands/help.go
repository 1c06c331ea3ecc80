package commands

import (
	"github.com/alecthomas/kong"
)

// HelpCmd is `charter help [COMMAND...]`: the same help as --help, for
// charter or for one command.
type HelpCmd struct {
	Command []string `arg:"" optional:"" help:"The command or topic to explain, e.g. settings set, or environment, exit-codes, files, layers." complete:"command"`
}

func (c *HelpCmd) Run(kctx *kong.Context, a *App) error {
	if len(c.Command) == 1 {
		if t, ok := findTopic(c.Command[0]); ok {
			return a.printTopic(t)
		}
	}
	// Trace selects the command the words name without running or
	// validating it, so a command's missing arguments do not matter here.
	tctx, err := kong.Trace(kctx.Kong, c.Command)
	if err == nil {
		err = tctx.Error
	}
	if err != nil {
		node := reached(tctx, kctx.Model)
		return &cliUsageError{msg: parseMessage(err, tctx, node, c.Command), usage: "charter help [COMMAND...]"}
	}
	return tctx.PrintUsage(false)
}
