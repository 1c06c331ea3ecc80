// Package projection turns charter's active rules, skills, commands and
// subagents into each agent's native files (SPEC §12 "Projection"), keeps
// the record of what it wrote ("Ownership"), plans every file before
// anything is written, and writes the plan through the guarded path.
//
// The projectors here are pure: the same items and options give the same
// files, byte for byte, whoever runs them.
package projection

import (
	"io/fs"
	"slices"
	"strings"

	"github.com/agentkit/charter/core/content"
)

// File is one projected file.
type File struct {
	Agent string
	Kind  content.Kind
	Item  string
	// Rel is the path relative to the level's base, slash-separated: the
	// agent's directory at user level, the project root at project level.
	Rel  string
	Data []byte
	Mode fs.FileMode
	// Always marks a file the agent loads into every session (a rule with
	// no globs): it counts toward the agent's budget.
	Always bool
	// Note says what of the source the agent's file leaves out or
	// translates (a tool it has no name for), "" when nothing.
	Note string
}

// Gap is an item kind an agent has no place for at a level: reported
// `unsupported`, never silently dropped.
type Gap struct {
	Agent string
	Kind  content.Kind
	Item  string
}

// Options are what projection depends on besides the items.
type Options struct {
	Level    string // content.LevelUser or content.LevelProject
	Autoload bool   // skills.autoload: false projects skills load-on-request
	// RulesInBlock puts the rules in the block even where the agent has a
	// rules folder, and NoRules gives it none: where other agents' files
	// carry its rules (apply's placement).
	RulesInBlock, NoRules bool
}

// Output is what one agent gets.
type Output struct {
	Files []File
	Gaps  []Gap
	// BlockRules are the rules that go inside charter's managed block of
	// the agent's instruction file (an agent without a rules folder).
	BlockRules []content.Item
}

// layout says where an agent keeps each kind at a level; "" means it has
// no place for it. Paths are prefixes before the item's name.
type layout struct {
	rule, skill, command, subagent string
	ruleInBlock                    bool
}

// layouts by agent and level. User-level paths are relative to the agent's
// directory of the active profile (core.System.AgentDir).
var layouts = map[string]map[string]layout{
	"claude": {
		content.LevelUser:    {rule: "rules/", skill: "skills/", command: "commands/", subagent: "agents/"},
		content.LevelProject: {rule: ".claude/rules/", skill: ".claude/skills/", command: ".claude/commands/", subagent: ".claude/agents/"},
	},
	"codex": {
		// Codex has no place for commands: it reads no $CODEX_HOME/prompts/
		// since 0.117 (claim.go's retired), and skills took their role.
		content.LevelUser:    {ruleInBlock: true, skill: "skills/", subagent: "agents/"},
		content.LevelProject: {ruleInBlock: true, skill: ".agents/skills/", subagent: ".codex/agents/"},
	},
	"gemini": {
		content.LevelUser:    {ruleInBlock: true, skill: "skills/", command: "commands/", subagent: "agents/"},
		content.LevelProject: {ruleInBlock: true, skill: ".agents/skills/", command: ".gemini/commands/", subagent: ".gemini/agents/"},
	},
	// Cursor keeps no user-level folder charter knows (its user rules live
	// in its settings): every kind is unsupported there. Cursor and
	// Copilot read .agents/skills in a project, so their skills share
	// Codex's and Gemini's copy: one copy, not one per agent, listed once.
	"cursor": {
		content.LevelProject: {rule: ".cursor/rules/", skill: ".agents/skills/", command: ".cursor/commands/", subagent: ".cursor/agents/"},
	},
	// Copilot CLI reads no .github/prompts/ (github/copilot-cli#1004): it
	// lists .claude/commands/*.md as its project skills, so its commands
	// are Claude's files, the same bytes, written once for both. In its
	// home ($COPILOT_HOME, ~/.copilot) it reads instructions/, skills/ and
	// agents/, and no command file.
	"copilot": {
		content.LevelUser:    {rule: "instructions/", skill: "skills/", subagent: "agents/"},
		content.LevelProject: {rule: ".github/instructions/", skill: ".agents/skills/", command: ".claude/commands/", subagent: ".github/agents/"},
	},
}

// Project renders the active items for one agent at one level. Items must
// be the active set (content's effective set, state active or policy).
func Project(agent string, items []content.Item, opt Options) Output {
	lay := layouts[agent][opt.Level]
	var out Output
	for i := range items {
		it := &items[i]
		if it.Kind == content.KindRule && len(it.Agents) > 0 && !slices.Contains(it.Agents, agent) {
			continue
		}
		var prefix string
		switch it.Kind {
		case content.KindRule:
			if opt.NoRules {
				continue
			}
			if lay.ruleInBlock || opt.RulesInBlock {
				out.BlockRules = append(out.BlockRules, *it)
				continue
			}
			prefix = lay.rule
		case content.KindSkill:
			prefix = lay.skill
		case content.KindCommand:
			prefix = lay.command
		case content.KindSubagent:
			prefix = lay.subagent
		}
		if prefix == "" {
			out.Gaps = append(out.Gaps, Gap{Agent: agent, Kind: it.Kind, Item: it.Name})
			continue
		}
		out.Files = append(out.Files, render(agent, prefix, it, opt)...)
	}
	slices.SortFunc(out.Files, func(a, b File) int { return strings.Compare(a.Rel, b.Rel) })
	return out
}

func render(agent, prefix string, it *content.Item, opt Options) []File {
	f := File{Agent: agent, Kind: it.Kind, Item: it.Name, Mode: 0o644}
	switch it.Kind {
	case content.KindRule:
		f.Rel, f.Data, f.Always = ruleFile(agent, prefix, it)
	case content.KindSkill:
		return skillFiles(agent, prefix, it, opt)
	case content.KindCommand:
		f.Rel, f.Data = commandFile(agent, prefix, it)
	case content.KindSubagent:
		f.Rel, f.Data, f.Note = subagentFile(agent, prefix, it)
	}
	return []File{f}
}

func ruleFile(agent, prefix string, it *content.Item) (string, []byte, bool) {
	body := string(it.Body)
	always := len(it.Globs) == 0
	switch agent {
	case "cursor":
		fm := front(kv("description", it.Description), list("globs", it.Globs), "alwaysApply: "+boolText(always))
		return fileName(agent, it.Kind, prefix, it.Name), []byte(fm + body), always
	case "copilot":
		apply := "**"
		if !always {
			apply = strings.Join(it.Globs, ",")
		}
		fm := front(kv("description", it.Description), kv("applyTo", apply))
		return fileName(agent, it.Kind, prefix, it.Name), []byte(fm + body), always
	}
	// Claude scopes a rule by paths in .claude/rules/ and, as Claude Code
	// 2.1 loads it, in ~/.claude/rules/ too: a glob rule waits there for a
	// matching file (SPEC §12 pinned details), so both levels get paths.
	return fileName(agent, it.Kind, prefix, it.Name), []byte(front(list("paths", it.Globs)) + body), always
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// skillFiles is SKILL.md with its frontmatter as written (other keys kept)
// plus the supporting files. With autoload off the agent loads the skill
// only when asked.
func skillFiles(agent, prefix string, it *content.Item, opt Options) []File {
	dir := prefix + it.Name + "/"
	fm := string(it.Front)
	if len(it.Front) == 0 {
		fm = kv("name", it.Name) + "\n" + kv("description", it.Description) + "\n"
	} else if !strings.HasSuffix(fm, "\n") {
		fm += "\n"
	}
	if !opt.Autoload && !hasKey(fm, "disable-model-invocation") {
		fm += "disable-model-invocation: true\n"
	}
	out := []File{{Agent: agent, Kind: it.Kind, Item: it.Name, Rel: dir + "SKILL.md", Mode: 0o644,
		Data: []byte("---\n" + fm + "---\n" + string(it.Body))}}
	for _, sf := range it.Files {
		mode := fs.FileMode(0o644)
		if sf.Exec {
			mode = 0o755
		}
		out = append(out, File{Agent: agent, Kind: it.Kind, Item: it.Name, Rel: dir + sf.Rel, Data: sf.Data, Mode: mode})
	}
	return out
}

// hasKey reports whether YAML frontmatter text sets key at the top level.
func hasKey(fm, key string) bool {
	for _, l := range strings.Split(fm, "\n") {
		if strings.HasPrefix(l, key+":") {
			return true
		}
	}
	return false
}

func commandFile(agent, prefix string, it *content.Item) (string, []byte) {
	body := string(it.Body)
	switch agent {
	case "gemini":
		// Gemini reads TOML; its placeholder for the arguments is {{args}}.
		prompt := strings.ReplaceAll(body, "$ARGUMENTS", "{{args}}")
		var b strings.Builder
		if it.Description != "" {
			b.WriteString("description = " + tomlBasic(it.Description) + "\n")
		}
		b.WriteString("prompt = " + tomlMultiline(prompt) + "\n")
		return fileName(agent, it.Kind, prefix, it.Name), []byte(b.String())
	case "cursor":
		// Cursor commands are plain Markdown: no frontmatter is read.
		return fileName(agent, it.Kind, prefix, it.Name), []byte(body)
	}
	fm := front(kv("description", it.Description), kv("argument-hint", it.ArgHint))
	return fileName(agent, it.Kind, prefix, it.Name), []byte(fm + body)
}

// Layout reports where an agent keeps a kind at a level ("" for nowhere),
// and whether its rules go into its managed block: for docs and doctor.
func Layout(agent, level string, k content.Kind) (prefix string, inBlock bool) {
	lay := layouts[agent][level]
	switch k {
	case content.KindRule:
		return lay.rule, lay.ruleInBlock
	case content.KindSkill:
		return lay.skill, false
	case content.KindCommand:
		return lay.command, false
	case content.KindSubagent:
		return lay.subagent, false
	}
	return "", false
}
