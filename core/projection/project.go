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

	"github.com/agentkit/charter/core/agents"
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

// Project renders the active items for agent a at one level, each in the
// place and format the agent table gives (core/agents/table*.go). Items must
// be the active set (content's effective set, state active or policy).
func Project(a agents.Agent, items []content.Item, opt Options) Output {
	places := a.At(opt.Level)
	var out Output
	for i := range items {
		it := &items[i]
		if it.Kind == content.KindRule && len(it.Agents) > 0 && !slices.Contains(it.Agents, a.Name) {
			continue
		}
		if it.Kind == content.KindRule {
			if opt.NoRules {
				continue
			}
			if places.RulesInBlock || opt.RulesInBlock {
				out.BlockRules = append(out.BlockRules, *it)
				continue
			}
		}
		place := places.Of(string(it.Kind))
		if place.Dir == "" {
			out.Gaps = append(out.Gaps, Gap{Agent: a.Name, Kind: it.Kind, Item: it.Name})
			continue
		}
		out.Files = append(out.Files, render(a, place, it, opt)...)
	}
	slices.SortFunc(out.Files, func(a, b File) int { return strings.Compare(a.Rel, b.Rel) })
	return out
}

func render(a agents.Agent, place agents.Place, it *content.Item, opt Options) []File {
	f := File{Agent: a.Name, Kind: it.Kind, Item: it.Name, Mode: 0o644, Rel: place.Dir + it.Name + place.Ext}
	switch it.Kind {
	case content.KindRule:
		f.Data, f.Always = ruleFile(place.Format, it)
	case content.KindSkill:
		return skillFiles(a.Name, place.Dir, it, opt)
	case content.KindCommand:
		f.Data = commandFile(a.Name, place.Format, it)
	case content.KindSubagent:
		f.Data, f.Note = subagentFile(a, place.Format, it)
	}
	return []File{f}
}

// ruleFile is a rule in format (core/agents/table.go names them), and
// whether the agent loads it in every session.
func ruleFile(format string, it *content.Item) ([]byte, bool) {
	body := it.Body
	always := len(it.Globs) == 0
	globs := strings.Join(it.Globs, ",")
	switch format {
	case "cursor":
		// alwaysApply: false without globs: Cursor's agent loads it when
		// the description fits the task (an imported agent-requested rule).
		always = always && !it.OnRequest
		return withBody(front(kv("description", it.Description), list("globs", it.Globs), "alwaysApply: "+boolText(always)), body), always
	case "copilot":
		if always {
			globs = "**"
		}
		return withBody(front(kv("description", it.Description), kv("applyTo", globs)), body), always
	case "trigger":
		if always {
			return withBody(front("trigger: always_on", kv("description", it.Description)), body), true
		}
		return withBody(front("trigger: glob", kv("description", it.Description), kv("globs", globs)), body), false
	case "kiro":
		if always {
			return withBody(front("inclusion: always"), body), true
		}
		return withBody(front("inclusion: fileMatch", list("fileMatchPattern", it.Globs)), body), false
	case "continue":
		return withBody(front(kv("name", it.Name), kv("description", it.Description), list("globs", it.Globs),
			"alwaysApply: "+boolText(always)), body), always
	case "augment", "plain":
		// No scoping by path: loaded always, its first line naming the
		// files it is meant for.
		head := ""
		if !always {
			head = GlobLine(it.Globs)
		}
		if format == "augment" {
			head = front("type: always_apply", kv("description", it.Description)) + head
		}
		return withBody(head, body), true
	}
	// "paths" (Claude at both levels, Cline, Qwen): a glob rule waits for
	// a matching file.
	return withBody(front(list("paths", it.Globs)), body), always
}

// withBody is head then body, in one new slice: a rule's file is its
// frontmatter and body, copied once.
func withBody(head string, body []byte) []byte {
	return append(append(make([]byte, 0, len(head)+len(body)), head...), body...)
}

// AlwaysRule is a rule file in format that the agent loads in every
// session, holding body: charter's block in an agent's rules folder.
func AlwaysRule(format, description string, body []byte) []byte {
	it := content.Item{Kind: content.KindRule, Name: "charter", Description: description, Body: body}
	data, _ := ruleFile(format, &it)
	return data
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// skillFiles is SKILL.md with its frontmatter as written (the keys agent
// reads, keptKeys) plus the supporting files. With autoload off the agent loads the skill
// only when asked.
func skillFiles(agent, prefix string, it *content.Item, opt Options) []File {
	dir := prefix + it.Name + "/"
	fm := keptKeys(agent, it)
	if len(it.Front) == 0 {
		fm = kv("name", it.Name) + "\n" + kv("description", it.Description) + "\n"
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

func commandFile(agent, format string, it *content.Item) []byte {
	body := string(it.Body)
	switch format {
	case "toml":
		// Gemini reads TOML; its placeholder for the arguments is {{args}}.
		prompt := strings.ReplaceAll(body, "$ARGUMENTS", "{{args}}")
		var b strings.Builder
		if it.Description != "" {
			b.WriteString("description = " + tomlBasic(it.Description) + "\n")
		}
		b.WriteString("prompt = " + tomlMultiline(prompt) + "\n")
		return []byte(b.String())
	case "plain":
		// Plain Markdown: no frontmatter is read (Cursor, Kiro prompts).
		return []byte(body)
	}
	return []byte(front(kv("description", it.Description), kv("argument-hint", it.ArgHint),
		strings.TrimSuffix(keptKeys(agent, it, "description", "argument-hint"), "\n")) + body)
}

// Layout reports where agent a keeps a kind at a level ("" for nowhere),
// and whether its rules go into its managed block: for docs and doctor.
func Layout(a agents.Agent, level string, k content.Kind) (prefix string, inBlock bool) {
	places := a.At(level)
	if k == content.KindRule && places.RulesInBlock {
		return "", true
	}
	return places.Of(string(k)).Dir, false
}
