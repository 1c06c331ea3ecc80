package commands

import (
	"context"

	"github.com/agentkit/charter/core/content"
)

// SkillsCmd groups the skills commands (SPEC §12).
type SkillsCmd struct {
	List SkillsListCmd `cmd:"" help:"List the skills in effect here: name, state, level, origin, description."`
	Show SkillsShowCmd `cmd:"" help:"Show one skill's fields and body."`
	New  SkillsNewCmd  `cmd:"" help:"Scaffold a new skill in this scope (--project: in the project's .charter/)."`
}

// SkillsListCmd lists the effective skills.
type SkillsListCmd struct{}

func (c *SkillsListCmd) Run(ctx context.Context, a *App) error {
	return a.listContent(ctx, content.KindSkill, "")
}

// SkillsShowCmd shows one skill.
type SkillsShowCmd struct {
	Name string `arg:"" help:"The skill's name." complete:"item-skill"`
}

func (c *SkillsShowCmd) Run(ctx context.Context, a *App) error {
	return a.showContent(ctx, content.KindSkill, c.Name)
}

// SkillsNewCmd scaffolds a skill, never overwriting one.
type SkillsNewCmd struct {
	Name string `arg:"" help:"The new skill's name: lowercase letters, digits and hyphens."`
	NewFlags
}

func (c *SkillsNewCmd) Run(ctx context.Context, a *App) error {
	return a.newContent(ctx, content.KindSkill, c.Name, c.NewFlags)
}
