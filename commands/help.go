package commands

import (
	"github.com/alecthomas/kong"
)

// HelpCmd is `charter help [COMMAND...]`: the same help as --help, for
// charter or for one command.
type HelpCmd struct {
	Command []string `arg:"" optional:"" help:"The command to explain, e.g. settings set." complete:"command"`
}

func (c *HelpCmd) Run(kctx *kong.Context) error {
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
