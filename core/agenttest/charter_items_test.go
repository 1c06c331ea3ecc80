package agenttest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The library the Codex and Gemini CLI tests project: one item of each
// kind per level, each carrying a unique ASCII marker so a count in what
// the agent sent the model is a count of that item.

// levelTags are the two levels a test writes, by the tag in item names.
var levelTags = []string{"user", "proj"}

// Markers, by level tag: each occurs once in the item's source.
func markAlways(tag string) string   { return "RULE-ALWAYS-" + tag + "-7f3a" }
func markGlob(tag string) string     { return "RULE-GLOB-" + tag + "-9c1d" }
func markSkill(tag string) string    { return "SKILL-DESC-" + tag + "-4b2e" }
func markCommand(tag string) string  { return "CMD-BODY-" + tag + "-5a1f" }
func markCmdDesc(tag string) string  { return "CMD-DESC-" + tag + "-3e8b" }
func markSubagent(tag string) string { return "SUB-DESC-" + tag + "-6d2c" }

// markBlock is the line that only charter's block of that level carries.
func markBlock(tag string) string {
	if tag == "user" {
		return "Managed by charter for the global scope"
	}
	return "Managed by charter for this project."
}

// writeCharterItems writes the library of level tag below base, the
// charter root (user) or the project's .charter folder.
func writeCharterItems(t *testing.T, base, tag string) {
	t.Helper()
	write(t, base, "rules/always-"+tag+".md", "---\ndescription: Always on, "+tag+" level\n---\n"+markAlways(tag)+"\n")
	write(t, base, "rules/go-"+tag+".md", "---\ndescription: Go files, "+tag+" level\nglobs: [\"**/*.go\"]\n---\n"+markGlob(tag)+"\n")
	write(t, base, "skills/skill-"+tag+"/SKILL.md", "---\nname: skill-"+tag+"\ndescription: Use for "+markSkill(tag)+"\n---\nSkill body of "+tag+".\n")
	write(t, base, "commands/cmd-"+tag+".md", "---\ndescription: Run for "+markCmdDesc(tag)+"\n---\n"+markCommand(tag)+" for $ARGUMENTS.\n")
	write(t, base, "subagents/agent-"+tag+".md", "---\nname: agent-"+tag+"\ndescription: Hand work to it for "+markSubagent(tag)+
		"\ntools: [Read, Grep, Glob]\n---\nYou check things at "+tag+" level.\n")
}

// newCharterWorld is a world with the library at both levels and an
// empty project settings file.
func newCharterWorld(t *testing.T) world {
	t.Helper()
	w := newWorld(t)
	writeCharterItems(t, w.root, "user")
	writeCharterItems(t, filepath.Join(w.project, ".charter"), "proj")
	write(t, w.project, ".charter/settings.yaml", "")
	return w
}

// applyReport is the part of `charter apply --json` a test reads.
type applyReport struct {
	Files []struct {
		Kind, Item, Agent, State string
		Path                     *string
	} `json:"files"`
}

// file is the report's entry for one item, or fails the test.
func (r applyReport) file(t *testing.T, agent, kind, item string) (path, state string) {
	t.Helper()
	for _, f := range r.Files {
		if f.Agent == agent && f.Kind == kind && f.Item == item {
			if f.Path != nil {
				path = *f.Path
			}
			return path, f.State
		}
	}
	t.Fatalf("charter apply reported nothing for %s %s %s", agent, kind, item)
	return "", ""
}

// applyBoth runs `charter apply --agent AGENT` and `charter apply --project
// --agent AGENT` in the project and returns both reports, by level tag.
func applyBoth(t *testing.T, w world, env []string, agent string) map[string]applyReport {
	t.Helper()
	out := map[string]applyReport{}
	for _, tag := range levelTags {
		args := []string{"apply", "--agent", agent, "--json"}
		if tag == "proj" {
			args = append(args, "--project")
		}
		text, err := run(t, w.project, env, charter(t), args...)
		if err != nil {
			t.Fatalf("charter %s: %v\n%s", strings.Join(args, " "), err, text)
		}
		var r applyReport
		if err := json.Unmarshal([]byte(text), &r); err != nil {
			t.Fatalf("charter %s: not one JSON document: %v\n%s", strings.Join(args, " "), err, text)
		}
		out[tag] = r
	}
	return out
}

// modelText is every string of a request body, JSON-decoded and joined
// by newlines: what the model reads, without JSON escaping.
func modelText(t *testing.T, body []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("a request body is no JSON: %v", err)
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			b.WriteString(v)
			b.WriteByte('\n')
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}

// requestLines lists the mock's requests for a failure message.
func requestLines(m *Mock) string {
	var b strings.Builder
	for _, r := range m.Requests() {
		fmt.Fprintf(&b, "\n  %s %s (%d bytes)", r.Method, r.Path, len(r.Body))
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()
}

// checkStartItems runs the checks every agent shares on the text of its
// first request, for level tag: each rule once and inside charter's block
// (the glob rule with the line naming its glob), the block once, the skill
// listed once.
func checkStartItems(t *testing.T, sent, tag string) {
	t.Run(tag+"/rule-always", func(t *testing.T) {
		once(t, sent, markAlways(tag), "always-on rule always-"+tag)
		inBlock(t, sent, tag, markAlways(tag), "always-on rule always-"+tag)
	})
	t.Run(tag+"/rule-glob", func(t *testing.T) {
		once(t, sent, markGlob(tag), "glob rule go-"+tag)
		inBlock(t, sent, tag, markGlob(tag), "glob rule go-"+tag)
		meantFor(t, sent, tag)
	})
	t.Run(tag+"/block", func(t *testing.T) { once(t, sent, markBlock(tag), "charter's block ("+tag+")") })
	t.Run(tag+"/skill", func(t *testing.T) { once(t, sent, markSkill(tag), "skill skill-"+tag) })
}

// once fails unless what occurs exactly once in sent.
func once(t *testing.T, sent, what, meaning string) {
	t.Helper()
	if n := count(sent, what); n != 1 {
		t.Errorf("%s: %q reached the model %d times, want once", meaning, what, n)
	}
}

// inBlock fails unless what occurs inside charter's block of level tag:
// after the block's own line, before the next end marker.
func inBlock(t *testing.T, sent, tag, what, meaning string) {
	t.Helper()
	start := strings.Index(sent, markBlock(tag))
	if start < 0 {
		t.Errorf("%s: charter's block (%s) did not reach the model", meaning, tag)
		return
	}
	block := sent[start:]
	if end := strings.Index(block, "<!-- charter:end -->"); end >= 0 {
		block = block[:end]
	}
	if !strings.Contains(block, what) {
		t.Errorf("%s: %q is not inside charter's block (%s)", meaning, what, tag)
	}
}

// meantFor fails unless the line just before the glob rule's body names
// its glob, so the agent knows which files the rule is for.
func meantFor(t *testing.T, sent, tag string) {
	t.Helper()
	re := regexp.MustCompile(`\*\*/\*\.go[^\n]*\n+` + regexp.QuoteMeta(markGlob(tag)))
	if !re.MatchString(sent) {
		t.Errorf("glob rule go-%s: no line naming **/*.go just before its body in what reached the model", tag)
	}
}
