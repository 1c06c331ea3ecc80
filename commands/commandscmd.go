package commands

import (
	"context"

	"github.com/agentkit/charter/core/content"
)

// CommandsCmd groups the commands commands (SPEC §12).
type CommandsCmd struct {
	List CommandsListCmd `cmd:"" help:"List the commands in effect here: name, state, level, origin, description."`
	Show CommandsShowCmd `cmd:"" help:"Show one command's fields and body."`
	New  CommandsNewCmd  `cmd:"" help:"Scaffold a new command in this scope (--project: in the project's .charter/)."`
}

// CommandsListCmd lists the effective commands.
type CommandsListCmd struct{}

func (c *CommandsListCmd) Run(ctx context.Context, a *App) error {
	return a.listContent(ctx, content.KindCommand, "")
}

// CommandsShowCmd shows one command.
type CommandsShowCmd struct {
	Name string `arg:"" help:"The command's name." complete:"item-command"`
}

func (c *CommandsShowCmd) Run(ctx context.Context, a *App) error {
	return a.showContent(ctx, content.KindCommand, c.Name)
}

// CommandsNewCmd scaffolds a command, never overwriting one.
type CommandsNewCmd struct {
	Name string `arg:"" help:"The new command's name: lowercase letters, digits and hyphens."`
	NewFlags
}

func (c *CommandsNewCmd) Run(ctx context.Context, a *App) error {
	return a.newContent(ctx, content.KindCommand, c.Name, c.NewFlags)
}
