package importer

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/lazy"
)

// spot is one folder of native files of one kind.
type spot struct {
	agent   string // the agent that reads them ("" for a peer's source)
	kind    content.Kind
	dir     string // below the base, slash-separated
	suffix  string // the file name after the item's name
	convert func(c *Candidate, data []byte)
	ignore  []string // names that are not items (charter's own file, a peer's other folders)
	subdirs bool     // a subfolder is reported, not passed over
	// rename gives a file whose name is no valid item name (ruler's
	// AGENTS.md) the name its source takes.
	rename map[string]string
}

// spotsOf says where each peer keeps each kind, by level; an agent's
// places come from the agent table (table.go).
var spotsOf = lazy.Value[map[string]map[string][]spot]{Make: func() map[string]map[string][]spot {
	return map[string]map[string][]spot{
		"rulesync": {content.LevelProject: {
			{kind: content.KindRule, dir: ".rulesync/rules", suffix: ".md", convert: rulesyncRule, subdirs: true},
			{kind: content.KindSkill, dir: ".rulesync/skills"},
			{kind: content.KindCommand, dir: ".rulesync/commands", suffix: ".md", convert: verbatim, subdirs: true},
			{kind: content.KindSubagent, dir: ".rulesync/subagents", suffix: ".md", convert: rulesyncSubagent},
		}},
		"ruler": {content.LevelProject: {
			{kind: content.KindRule, dir: ".ruler", suffix: ".md", convert: plain, subdirs: true, ignore: []string{"skills", "agents"},
				rename: map[string]string{"AGENTS": "ruler-agents"}},
			{kind: content.KindSkill, dir: ".ruler/skills"},
			{kind: content.KindSubagent, dir: ".ruler/agents", suffix: ".md", convert: subagent},
		}},
	}
}}

// split is data's frontmatter; a file whose frontmatter cannot be read is
// skipped with the reason. A one-line value YAML cannot read as written
// (Cursor's globs: **/*.py, an alias to YAML; Claude's argument-hint:
// [a] [b]) is read as the agent reads it, as text: the data given back
// quotes it, and a note says so.
func split(c *Candidate, data []byte) (content.Frontmatter, []byte, bool) {
	fm, p := content.ParseFrontmatter(data)
	fixed, quoted := data, []string{}
	for p != nil {
		next, key, ok := quoteLine(fixed, p.Line)
		if !ok {
			c.skip("line %d: %s", p.Line, p.Message)
			return fm, data, false
		}
		quoted = append(quoted, fmt.Sprintf("%s (line %d)", key, p.Line))
		fixed = next
		fm, p = content.ParseFrontmatter(fixed)
	}
	if len(quoted) > 0 {
		c.note("%s read as text, as the agent reads it: quoted in the source", strings.Join(quoted, ", "))
	}
	return fm, fixed, true
}

// nativeLine is a top-level key with a one-line value not yet quoted.
var nativeLine = lazy.Regexp{Expr: `^([A-Za-z0-9_-]+):[ \t]+([^'" \t][^\r]*?)[ \t]*(\r?)$`}

// quoteLine single-quotes the value on line n (from 1) of data.
func quoteLine(data []byte, n int) ([]byte, string, bool) {
	lines := strings.SplitAfter(string(data), "\n")
	if n < 2 || n > len(lines) {
		return nil, "", false
	}
	line, nl := strings.CutSuffix(lines[n-1], "\n")
	m := nativeLine.Get().FindStringSubmatch(line)
	if m == nil {
		return nil, "", false
	}
	lines[n-1] = m[1] + ": '" + strings.ReplaceAll(m[2], "'", "''") + "'" + m[3]
	if nl {
		lines[n-1] += "\n"
	}
	return []byte(strings.Join(lines, "")), m[1], true
}

// verbatim keeps the file as the source: a command's or subagent's
// frontmatter may carry any keys, and charter keeps them.
func verbatim(c *Candidate, data []byte) {
	if _, data, ok := split(c, data); ok {
		c.Data = data
	}
}

// plain is a file the agent reads as Markdown alone (a Cursor command, a
// ruler rule): a frontmatter-looking start is kept as body behind an empty
// frontmatter, so charter does not take it for fields.
func plain(c *Candidate, data []byte) {
	if fm, _ := content.ParseFrontmatter(data); fm.Present || bytes.HasPrefix(data, []byte("---")) {
		c.Data = append([]byte("---\n---\n"), data...)
		return
	}
	c.Data = data
}

// subagent keeps the file, naming it after its file when the frontmatter
// has no name (Copilot's agents often have none).
func subagent(c *Candidate, data []byte) {
	fm, _, ok := split(c, data)
	if !ok {
		return
	}
	if !fm.Present || fm.Lookup("name") != nil {
		c.Data = data
		return
	}
	c.note("name %s added to the frontmatter (charter names a subagent in it)", c.Name)
	c.Data = []byte("---\nname: " + c.Name + "\n" + string(fm.Raw) + "---\n" + string(fm.Body))
}

// ruleFront is a rule source's frontmatter, in charter's field order.
type ruleFront struct {
	Description string   `yaml:"description,omitempty"`
	Globs       []string `yaml:"globs,omitempty,flow"`
	Agents      []string `yaml:"agents,omitempty,flow"`
	// AlwaysApply is Cursor's key, kept false for an agent-requested rule.
	AlwaysApply *bool `yaml:"alwaysApply,omitempty"`
}

func (f ruleFront) source(body []byte) []byte {
	if f.Description == "" && len(f.Globs) == 0 && len(f.Agents) == 0 && f.AlwaysApply == nil {
		if _, p := content.ParseFrontmatter(body); p != nil || bytes.HasPrefix(body, []byte("---")) {
			return append([]byte("---\n---\n"), body...)
		}
		return body
	}
	y, _ := yaml.Marshal(f) // strings and lists only: cannot fail
	return append([]byte("---\n"+string(y)+"---\n"), body...)
}

// text and texts read a field leniently: a native file's own tool decides
// what is valid, charter only takes what it understands.
func text(fm *content.Frontmatter, key string) string {
	if f := fm.Lookup(key); f != nil && f.Value.Kind == yaml.ScalarNode && f.Value.Tag != "!!null" {
		return f.Value.Value
	}
	return ""
}

func texts(fm *content.Frontmatter, key string) []string {
	f := fm.Lookup(key)
	if f == nil {
		return nil
	}
	var raw []string
	switch f.Value.Kind {
	case yaml.ScalarNode:
		if f.Value.Tag != "!!null" {
			raw = strings.Split(f.Value.Value, ",")
		}
	case yaml.SequenceNode:
		for _, n := range f.Value.Content {
			if n.Kind == yaml.ScalarNode {
				raw = append(raw, n.Value)
			}
		}
	}
	var out []string
	for _, s := range raw {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// others notes the keys charter has no field for: dropped, and said so.
func others(c *Candidate, fm *content.Frontmatter, known ...string) {
	for _, f := range fm.Fields {
		if !slices.Contains(known, f.Key) {
			c.note("%s (line %d) has no charter field: left out of the source", f.Key, f.Line)
		}
	}
}

// everywhere reports globs that match every file: an always-loaded rule.
func everywhere(globs []string) bool {
	return len(globs) == 1 && (globs[0] == "**" || globs[0] == "**/*")
}

func claudeRule(c *Candidate, data []byte) {
	fm, _, ok := split(c, data)
	if !ok {
		return
	}
	if !fm.Present {
		c.Data = data
		return
	}
	others(c, &fm, "paths", "description")
	c.Data = ruleFront{Description: text(&fm, "description"), Globs: texts(&fm, "paths")}.source(fm.Body)
}

func cursorRule(c *Candidate, data []byte) {
	fm, _, ok := split(c, data)
	if !ok {
		return
	}
	others(c, &fm, "description", "globs", "alwaysApply")
	f := ruleFront{Description: text(&fm, "description"), Globs: texts(&fm, "globs")}
	always := text(&fm, "alwaysApply") == "true"
	switch {
	case always && len(f.Globs) > 0:
		c.note("alwaysApply: true wins over its globs in Cursor: the rule is always loaded")
		f.Globs = nil
	case !always && len(f.Globs) == 0 && fm.Present:
		f.AlwaysApply = new(bool)
		c.note("Cursor loads it when its description fits (no globs, alwaysApply false): kept so for Cursor; the other agents load it always")
	}
	c.Data = f.source(fm.Body)
}

func copilotRule(c *Candidate, data []byte) {
	fm, _, ok := split(c, data)
	if !ok {
		return
	}
	others(c, &fm, "description", "applyTo")
	f := ruleFront{Description: text(&fm, "description"), Globs: texts(&fm, "applyTo")}
	if everywhere(f.Globs) {
		f.Globs = nil
	}
	c.Data = f.source(fm.Body)
}

// copilotPrompt turns Copilot's argument variable into charter's, the
// one the projector turns back.
func copilotPrompt(c *Candidate, data []byte) {
	fm, _, ok := split(c, data)
	if !ok {
		return
	}
	if bytes.Contains(fm.Body, []byte("$ARGUMENTS")) {
		c.skip("its body says $ARGUMENTS, which charter would turn into ${input:args} for Copilot: rename it and import again")
		return
	}
	body := bytes.ReplaceAll(fm.Body, []byte("${input:args}"), []byte("$ARGUMENTS"))
	if !fm.Present {
		c.Data = body
		return
	}
	c.Data = []byte("---\n" + string(fm.Raw) + "---\n" + string(body))
}

// geminiCommand reads a Gemini command's TOML: its prompt with {{args}}
// as $ARGUMENTS, and its description.
func geminiCommand(c *Candidate, data []byte) {
	var doc map[string]any
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		c.skip("is not valid TOML: %s", firstLine(err.Error()))
		return
	}
	prompt, _ := doc["prompt"].(string)
	desc, _ := doc["description"].(string)
	if prompt == "" {
		c.skip("has no prompt: a Gemini command's text is its prompt")
		return
	}
	if strings.Contains(prompt, "$ARGUMENTS") {
		c.skip("its prompt says $ARGUMENTS, which charter would turn into {{args}} for Gemini: rename it and import again")
		return
	}
	for _, k := range md.Keys() {
		if len(k) == 1 && k[0] != "prompt" && k[0] != "description" {
			c.note("%s has no charter field: left out of the source", k[0])
		}
	}
	body := strings.ReplaceAll(prompt, "{{args}}", "$ARGUMENTS")
	var fm string
	if desc != "" {
		y, _ := yaml.Marshal(map[string]string{"description": desc})
		fm = "---\n" + string(y) + "---\n"
	} else if strings.HasPrefix(body, "---") {
		fm = "---\n---\n"
	}
	c.Data = []byte(fm + body)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
