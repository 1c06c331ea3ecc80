package commands

import (
	"context"

	"github.com/agentkit/charter/core/content"
)

// SubagentsCmd groups the subagents commands (SPEC §12).
type SubagentsCmd struct {
	List SubagentsListCmd `cmd:"" help:"List the subagents in effect here: name, state, level, origin, description."`
	Show SubagentsShowCmd `cmd:"" help:"Show one subagent's fields and body."`
	New  SubagentsNewCmd  `cmd:"" help:"Scaffold a new subagent in this scope (--project: in the project's .charter/)."`
}

// SubagentsListCmd lists the effective subagents.
type SubagentsListCmd struct{}

func (c *SubagentsListCmd) Run(ctx context.Context, a *App) error {
	return a.listContent(ctx, content.KindSubagent, "")
}

// SubagentsShowCmd shows one subagent.
type SubagentsShowCmd struct {
	Name string `arg:"" help:"The subagent's name." complete:"item-subagent"`
}

func (c *SubagentsShowCmd) Run(ctx context.Context, a *App) error {
	return a.showContent(ctx, content.KindSubagent, c.Name)
}

// SubagentsNewCmd scaffolds a subagent, never overwriting one.
type SubagentsNewCmd struct {
	Name string `arg:"" help:"The new subagent's name: lowercase letters, digits and hyphens."`
	NewFlags
}

func (c *SubagentsNewCmd) Run(ctx context.Context, a *App) error {
	return a.newContent(ctx, content.KindSubagent, c.Name, c.NewFlags)
}
