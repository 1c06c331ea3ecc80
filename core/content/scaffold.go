package content

import "fmt"

// Scaffold is the source `charter <kind>s new NAME` writes: a valid item
// whose fields say what to fill in.
func Scaffold(k Kind, name string) []byte {
	switch k {
	case KindRule:
		return fmt.Appendf(nil, `---
description: One line on what this rule is for (agents that pick rules by description read it).
tier: balanced # minimal, balanced or full: the lowest rules.tier that includes it
# globs: [src/**/*.go] # only for files matching these; without globs it is always loaded
# agents: [claude] # only for these agents; without agents every agent gets it
---

# %s

State the rule as an instruction to the agent, with the reason for it.
`, name)
	case KindSkill:
		return fmt.Appendf(nil, `---
name: %s
description: Say what this skill does and when the agent should use it.
---

# %s

The steps the agent follows when it uses this skill. Other files of this
folder (scripts, references) travel with it.
`, name, name)
	case KindCommand:
		return fmt.Appendf(nil, `---
description: What /%s does, shown in the agent's command menu.
argument-hint: "[what to work on]"
---

Do the task for $ARGUMENTS.
`, name)
	case KindSubagent:
		return fmt.Appendf(nil, `---
name: %s
description: When the main agent should hand work to this subagent.
tools: [Read, Grep, Glob] # Claude Code's names: apply writes each agent's own (Gemini: read_file, …)
# model: sonnet # Claude Code's: the other agents' files leave it out
---

You are a focused assistant. Describe its role, how it works and what it reports back.
`, name)
	}
	return nil
}
