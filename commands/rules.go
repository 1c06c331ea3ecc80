package commands

import (
	"context"

	"github.com/agentkit/charter/core/content"
)

// RulesCmd groups the rules commands (SPEC §12).
type RulesCmd struct {
	List   RulesListCmd   `cmd:"" help:"List the rules in effect here: name, state, level, origin, description."`
	Show   RulesShowCmd   `cmd:"" help:"Show one rule's fields and body."`
	New    RulesNewCmd    `cmd:"" help:"Scaffold a new rule in this scope (--project: in the project's .charter/)."`
	Status RulesStatusCmd `cmd:"" help:"Show each rule with whether Claude Code loaded it in the last session, as its InstructionsLoaded hook reported."`
}

// RulesStatusCmd shows what the agents reported loading.
type RulesStatusCmd struct{}

func (c *RulesStatusCmd) Run(ctx context.Context, a *App) error {
	return a.statusContent(ctx, content.KindRule)
}

// RulesListCmd lists the effective rules.
type RulesListCmd struct {
	Path string `name:"path" placeholder:"FILE" help:"Only the rules in effect that apply to FILE (their globs match it, or they have none); FILE relative to the project root (as MCP's rules_list takes it, so a script needs no working directory) or absolute, inside the project."`
}

func (c *RulesListCmd) Run(ctx context.Context, a *App) error {
	return a.listContent(ctx, content.KindRule, c.Path)
}

// RulesShowCmd shows one rule.
type RulesShowCmd struct {
	Name string `arg:"" help:"The rule's name." complete:"item-rule"`
}

func (c *RulesShowCmd) Run(ctx context.Context, a *App) error {
	return a.showContent(ctx, content.KindRule, c.Name)
}

// RulesNewCmd scaffolds a rule, never overwriting one.
type RulesNewCmd struct {
	Name string `arg:"" help:"The new rule's name: lowercase letters, digits and hyphens."`
	NewFlags
}

func (c *RulesNewCmd) Run(ctx context.Context, a *App) error {
	return a.newContent(ctx, content.KindRule, c.Name, c.NewFlags)
}
