package projection

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core/content"
)

// frontOf parses a projected Markdown file's frontmatter.
func frontOf(t *testing.T, data []byte) map[string]any {
	t.Helper()
	s, ok := strings.CutPrefix(string(data), "---\n")
	end := strings.Index(s, "\n---\n")
	if !ok || end < 0 {
		t.Fatalf("no frontmatter:\n%s", data)
	}
	m := map[string]any{}
	if err := yaml.Unmarshal([]byte(s[:end]), &m); err != nil {
		t.Fatalf("frontmatter is no YAML: %v\n%s", err, data)
	}
	return m
}

// geminiKeys are the keys Gemini CLI 0.61's localAgentSchema allows (it is
// strict: any other key fails the file).
var geminiKeys = []string{"kind", "name", "description", "display_name", "tools", "mcp_servers", "model", "temperature", "max_turns", "timeout_mins"}

// The scaffold of `subagents new` reaches each agent in its own fields and
// types: Gemini and Copilot a YAML list of their own tool names, Claude its
// comma-separated names and its model, Codex and Cursor no tool list, each
// left-out field named in the note.
func TestSubagentFieldsPerAgent(t *testing.T) {
	src := strings.Replace(string(content.Scaffold(content.KindSubagent, "checker")), "# model: sonnet", "model: sonnet", 1)
	it, ps := content.Parse(content.KindSubagent, "checker", "/x/checker.md", []byte(src), []string{"claude"})
	if len(ps) > 0 || !reflect.DeepEqual(it.Tools, []string{"Read", "Grep", "Glob"}) || it.Model != "sonnet" {
		t.Fatalf("scaffold: %+v %v", it, ps)
	}
	want := map[string]any{
		"gemini":  []any{"read_file", "grep_search", "glob"},
		"copilot": []any{"read", "search"},
		"claude":  "Read, Grep, Glob",
	}
	for _, agent := range []string{"claude", "gemini", "copilot", "cursor"} {
		rel, data, note := subagentFor(agent, it)
		fm := frontOf(t, data)
		if !reflect.DeepEqual(fm["tools"], want[agent]) {
			t.Errorf("%s %s: tools %#v, want %#v", agent, rel, fm["tools"], want[agent])
		}
		if fm["name"] != "checker" || fm["description"] == "" {
			t.Errorf("%s: name/description %v", agent, fm)
		}
		if _, has := fm["model"]; has != (agent == "claude") {
			t.Errorf("%s: model %v", agent, fm["model"])
		}
		if agent != "claude" && !strings.Contains(note, "model left out") {
			t.Errorf("%s: note %q", agent, note)
		}
		if agent == "gemini" {
			for k := range fm {
				if !slices.Contains(geminiKeys, k) {
					t.Errorf("gemini: key %q, which Gemini's schema rejects", k)
				}
			}
		}
	}
	_, data, note := subagentFor("codex", it)
	if strings.Contains(string(data), "tools") || !strings.Contains(note, "tools left out") {
		t.Errorf("codex: %q\n%s", note, data)
	}
	_, _, note = subagentFor("cursor", it)
	if !strings.Contains(note, "tools left out") {
		t.Errorf("cursor: note %q", note)
	}
}

// Tool names: an agent's own names pass, Claude's are translated (case
// does not matter to the tables), MCP tools take the agent's form, and a
// name an agent has none for is left out and named; a list that loses
// every name stays, empty, so the subagent gets no tool rather than all.
func TestSubagentToolNames(t *testing.T) {
	for _, c := range []struct {
		agent   string
		tools   []string
		want    any
		dropped string
	}{
		{"gemini", []string{"Bash", "edit", "MultiEdit", "read_file", "mcp__github__get_issue"}, []any{"run_shell_command", "replace", "read_file", "mcp_github_get_issue"}, ""},
		{"gemini", []string{"Read", "NotebookRead", "mcp__my_srv__x"}, []any{"read_file"}, "NotebookRead, mcp__my_srv__x"},
		{"gemini", []string{"NotebookRead"}, []any{}, "NotebookRead"},
		{"copilot", []string{"Write", "Edit", "Task", "WebFetch", "mcp__github__get_issue", "execute"}, []any{"edit", "agent", "web", "github/get_issue", "execute"}, ""},
		{"copilot", []string{"LS"}, []any{}, "LS"},
	} {
		it := &content.Item{Kind: content.KindSubagent, Name: "s", Description: "d", Tools: c.tools, Body: []byte("B.\n")}
		_, data, note := subagentFor(c.agent, it)
		fm := frontOf(t, data)
		if !reflect.DeepEqual(fm["tools"], c.want) {
			t.Errorf("%s %v: tools %#v, want %#v\n%s", c.agent, c.tools, fm["tools"], c.want, data)
		}
		if c.dropped == "" && note != "" || c.dropped != "" && !strings.Contains(note, "tools "+c.dropped+" have no "+c.agent+" name") {
			t.Errorf("%s %v: note %q", c.agent, c.tools, note)
		}
	}
	// No tools in the source: no tools key (the agent's default), no note.
	it := &content.Item{Kind: content.KindSubagent, Name: "s", Description: "d", Body: []byte("B.\n")}
	for _, agent := range []string{"claude", "gemini", "copilot", "codex", "cursor"} {
		if _, data, note := subagentFor(agent, it); strings.Contains(string(data), "tools") || note != "" {
			t.Errorf("%s without tools: %q\n%s", agent, note, data)
		}
	}
}
