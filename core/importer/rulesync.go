package importer

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/lazy"
)

// rulesyncAgents maps rulesync's target ids to charter's agents.
var rulesyncAgents = lazy.Value[map[string]string]{Make: func() map[string]string {
	return map[string]string{
		"claudecode": "claude", "codexcli": "codex", "geminicli": "gemini",
		"cursor": "cursor", "copilot": "copilot", "copilotcli": "copilot",
	}
}}

// targets turns rulesync's `targets` into charter's agents: nil for every
// agent; ok false when it names none charter projects to.
func targets(c *Candidate, fm *content.Frontmatter) (agents []string, ok bool) {
	ts := texts(fm, "targets")
	if len(ts) == 0 || slices.Contains(ts, "*") {
		return nil, true
	}
	for _, t := range ts {
		a, known := rulesyncAgents.Get()[t]
		switch {
		case !known:
			c.note("target %s is not an agent charter projects to: left out", t)
		case !slices.Contains(agents, a):
			agents = append(agents, a)
		}
	}
	slices.Sort(agents)
	return agents, len(agents) > 0
}

// rulesyncRule reads a `.rulesync/rules` file: description, globs and
// targets become the rule's fields; the body is kept byte for byte.
func rulesyncRule(c *Candidate, data []byte) {
	fm, _, ok := split(c, data)
	if !ok {
		return
	}
	others(c, &fm, "description", "globs", "targets", "root")
	if text(&fm, "root") == "true" {
		c.note("was rulesync's root rule: charter loads it always, as its own file")
	}
	agents, ok := targets(c, &fm)
	if !ok {
		c.skip("its targets name no agent charter projects to (%s)", strings.Join(texts(&fm, "targets"), ", "))
		return
	}
	f := ruleFront{Description: text(&fm, "description"), Globs: texts(&fm, "globs"), Agents: agents}
	if everywhere(f.Globs) {
		f.Globs = nil
	}
	c.Data = f.source(fm.Body)
}

// rulesyncSubagent reads a `.rulesync/subagents` file: name and
// description, with Claude Code's tools and model (rulesync keeps them in
// its claudecode block).
func rulesyncSubagent(c *Candidate, data []byte) {
	fm, _, ok := split(c, data)
	if !ok {
		return
	}
	others(c, &fm, "name", "description", "targets", "claudecode")
	if _, ok := targets(c, &fm); !ok {
		c.note("its targets name no agent charter projects to; subagents go to every agent that has them")
	}
	type claudeBlock struct {
		Model string `yaml:"model"`
		Tools any    `yaml:"tools"`
	}
	var cc claudeBlock
	if f := fm.Lookup("claudecode"); f != nil {
		_ = f.Value.Decode(&cc) // a block charter cannot read gives no tools
	}
	sub := struct {
		Name        string   `yaml:"name"`
		Description string   `yaml:"description"`
		Tools       []string `yaml:"tools,omitempty,flow"`
		Model       string   `yaml:"model,omitempty"`
	}{Name: text(&fm, "name"), Description: text(&fm, "description"), Model: cc.Model}
	if sub.Name == "" {
		sub.Name = c.Name
	}
	switch t := cc.Tools.(type) {
	case string:
		for _, s := range strings.Split(t, ",") {
			if s = strings.TrimSpace(s); s != "" {
				sub.Tools = append(sub.Tools, s)
			}
		}
	case []any:
		for _, s := range t {
			if s, ok := s.(string); ok {
				sub.Tools = append(sub.Tools, s)
			}
		}
	}
	y, _ := yaml.Marshal(sub)
	c.Data = append([]byte("---\n"+string(y)+"---\n"), fm.Body...)
}
