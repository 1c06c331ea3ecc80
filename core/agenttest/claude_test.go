package agenttest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// charterEnv is w's environment with charter on PATH, as a user has it:
// the project's Stop hook and .mcp.json call plain `charter`.
func charterEnv(t *testing.T, w world, extra ...string) []string {
	t.Helper()
	path := "PATH=" + filepath.Dir(charter(t)) + string(os.PathListSeparator) + os.Getenv("PATH")
	return w.env(append([]string{path}, extra...)...)
}

// runClaude runs `claude -p prompt --output-format json` in the project
// against m and fails the test unless the run ends well with the mock's
// reply.
func runClaude(t *testing.T, w world, env []string, m *Mock, prompt string) {
	t.Helper()
	env = append(env, "ANTHROPIC_BASE_URL="+m.URL, "ANTHROPIC_API_KEY=dummy",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1")
	out, err := run(t, w.project, env, bin(t, "claude"), "-p", prompt, "--output-format", "json")
	var res struct {
		IsError bool   `json:"is_error"`
		Result  string `json:"result"`
	}
	if err != nil || json.Unmarshal([]byte(out), &res) != nil || res.IsError || res.Result != anthropicReply {
		t.Fatalf("claude -p %q: %v\n%s\nrequests: %s", prompt, err, out, requestLines(m))
	}
}

// lineOf is the line of sent holding what, for the log of what reached
// the model.
func lineOf(sent, what string) string {
	i := strings.Index(sent, what)
	if i < 0 {
		return "(absent)"
	}
	start := strings.LastIndexByte(sent[:i], '\n') + 1
	end := strings.IndexByte(sent[i:], '\n')
	if end < 0 {
		end = len(sent) - i
	}
	return strings.TrimSpace(sent[start : i+end])
}

// seenOnce is once, logging the line the item reached the model in.
func seenOnce(t *testing.T, sent, what, meaning string) {
	t.Helper()
	once(t, sent, what, meaning)
	t.Logf("%s: %s", meaning, lineOf(sent, what))
}

// checkClaudeStart checks Claude Code's first request for each level's
// items: the always-on rule once (its memory), the skill and the command
// once each in the Skill tool's list (Claude merges commands into
// skills), the subagent once among the Agent tool's types, charter's
// block once; no command body, and no glob rule before a matching file
// is read. blocks is each level's block line, by level tag.
func checkClaudeStart(t *testing.T, start string, blocks map[string]string) {
	for _, tag := range levelTags {
		t.Run(tag+"/rule-always", func(t *testing.T) { seenOnce(t, start, markAlways(tag), "always-on rule always-"+tag) })
		t.Run(tag+"/block", func(t *testing.T) { seenOnce(t, start, blocks[tag], "charter's block ("+tag+")") })
		t.Run(tag+"/skill", func(t *testing.T) { seenOnce(t, start, markSkill(tag), "skill skill-"+tag) })
		t.Run(tag+"/command", func(t *testing.T) {
			seenOnce(t, start, markCmdDesc(tag), "command cmd-"+tag+" in the skill list")
			if n := count(start, markCommand(tag)); n != 0 {
				t.Errorf("command cmd-%s: its body reached the model %d times before anyone ran it", tag, n)
			}
		})
		t.Run(tag+"/subagent", func(t *testing.T) { seenOnce(t, start, markSubagent(tag), "subagent agent-"+tag) })
		t.Run(tag+"/rule-glob-waits", func(t *testing.T) {
			if n := count(start, markGlob(tag)); n != 0 {
				t.Errorf("glob rule go-%s reached the model %d times at start, before any .go file was read: %s", tag, n, lineOf(start, markGlob(tag)))
			}
		})
	}
}

// TestClaudeLoadsCharter: after `charter apply --agent claude` and `apply
// --project --agent claude`, `claude -p` tells the model each item of
// each level once (see checkClaudeStart). The mock then has Claude Code
// Read main.go: each level's glob rule comes with that tool result, once.
func TestClaudeLoadsCharter(t *testing.T) {
	bin(t, "claude")
	w := newCharterWorld(t)
	write(t, w.project, "main.go", "package main\n")
	env := charterEnv(t, w)
	applyBoth(t, w, env, "claude")
	m := newMock(t)
	runClaude(t, w, env, m, "MOCK-READ:"+filepath.Join(w.project, "main.go"))

	checkClaudeStart(t, anthropicTurn(t, m, 0), map[string]string{"user": markBlock("user"), "proj": markBlock("proj")})
	afterRead := lastUserText(t, m, 1)
	if !strings.Contains(afterRead, "package main") {
		t.Fatalf("the second request carries no Read of main.go: %s", afterRead)
	}
	for _, tag := range levelTags {
		t.Run(tag+"/rule-glob-on-read", func(t *testing.T) {
			seenOnce(t, afterRead, markGlob(tag), "glob rule go-"+tag+" with the Read of main.go")
		})
	}
}

// TestClaudeProfileLoadsCharter: with CLAUDE_CONFIG_DIR naming an
// agent-switch profile's config folder, `charter apply --agent claude`
// writes the user level into that folder (nothing into ~/.claude), and
// Claude Code run with the same variable loads it: the profile's block
// and every item once, as outside a profile.
func TestClaudeProfileLoadsCharter(t *testing.T) {
	bin(t, "claude")
	w := newCharterWorld(t)
	cfg := filepath.Join(w.home, ".agent-switch", "claude", "p", "config")
	if err := os.MkdirAll(cfg, 0o755); err != nil {
		t.Fatal(err)
	}
	env := charterEnv(t, w, "CLAUDE_CONFIG_DIR="+cfg)
	reports := applyBoth(t, w, env, "claude")
	for _, kind := range [][2]string{{"rule", "always-user"}, {"rule", "go-user"}, {"skill", "skill-user"}, {"command", "cmd-user"}, {"subagent", "agent-user"}} {
		if path, _ := reports["user"].file(t, "claude", kind[0], kind[1]); !strings.HasPrefix(path, cfg+string(filepath.Separator)) {
			t.Errorf("%s %s written to %q, not into the profile's %s", kind[0], kind[1], path, cfg)
		}
	}
	if _, err := os.Stat(filepath.Join(w.home, ".claude")); !os.IsNotExist(err) {
		t.Errorf("charter wrote %s, which Claude Code in the profile does not read (stat: %v)", filepath.Join(w.home, ".claude"), err)
	}
	m := newMock(t)
	runClaude(t, w, env, m, "hi")
	checkClaudeStart(t, anthropicTurn(t, m, 0), map[string]string{"user": "Managed by charter for the profile claude/p.", "proj": markBlock("proj")})
}
