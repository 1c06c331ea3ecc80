package commands

import (
	"fmt"

	"github.com/agentkit/charter/helpers/words"
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
		msg := parseMessage(err, tctx, node, c.Command)
		if node == kctx.Model.Node && len(c.Command) == 1 {
			// A word that is no command may be a topic misspelt.
			var names []string
			for _, t := range topics() {
				names = append(names, t.Name)
			}
			if near := words.Nearest(c.Command[0], append(commands(node), names...)); near != "" {
				msg = fmt.Sprintf("unknown command or topic %q: did you mean %q?", c.Command[0], near)
			} else {
				msg += "; or a topic: " + orList(names)
			}
		}
		return &cliUsageError{msg: msg, usage: "charter help [COMMAND...]"}
	}
	return tctx.PrintUsage(false)
}
