package agenttest

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runCopilot runs `copilot -p prompt --allow-all-tools` in the project
// against m, with Copilot CLI's bring-your-own-key provider and no GitHub
// login, and fails the test unless the run ends well with the mock's reply.
func runCopilot(t *testing.T, w world, env []string, m *Mock, prompt string) {
	t.Helper()
	env = append(env, "COPILOT_PROVIDER_BASE_URL="+m.URL+"/v1", "COPILOT_PROVIDER_API_KEY=dummy",
		"COPILOT_MODEL=gpt-4o", "COPILOT_OFFLINE=true")
	out, err := run(t, w.project, env, bin(t, "copilot"), "-p", prompt, "--allow-all-tools")
	if err != nil || !strings.Contains(out, chatReply) {
		t.Fatalf("copilot -p %q: %v\n%s\nrequests: %s", prompt, err, out, requestLines(m))
	}
}

// applyJSON runs `charter apply --json` with args and returns its report,
// or the output and error of a refusal.
func applyJSON(t *testing.T, w world, env []string, args ...string) (applyReport, string, error) {
	t.Helper()
	args = append([]string{"apply", "--json"}, args...)
	text, err := run(t, w.project, env, charter(t), args...)
	var r applyReport
	if err == nil {
		if jerr := json.Unmarshal([]byte(text), &r); jerr != nil {
			t.Fatalf("charter %s: not one JSON document: %v\n%s", strings.Join(args, " "), jerr, text)
		}
	}
	return r, text, err
}

// globListed matches Copilot's table of instruction files it reads on
// demand: the rule's pattern and its file on one line.
func globListed(tag string) *regexp.Regexp {
	return regexp.MustCompile(`\*\*/\*\.go[^\n]*go-` + tag + `\.instructions\.md`)
}

// TestCopilotLoadsCharter: after `charter apply --agent copilot` (user
// level, into ~/.copilot) and `apply --project --agent copilot`, `copilot
// -p` tells the model each level's always-on rule and block once (its
// custom instructions), the skill once (its skill list), the subagent once
// (the task tool's custom agents), the glob rule only as a row of its
// on-demand instruction table (pattern and file, not the body), and each
// command once, unless charter reports it unsupported.
func TestCopilotLoadsCharter(t *testing.T) {
	bin(t, "copilot")
	w := newCharterWorld(t)
	env := charterEnv(t, w)
	reports := map[string]applyReport{}
	var userErr error
	var userOut string
	reports["user"], userOut, userErr = applyJSON(t, w, env, "--agent", "copilot")
	proj, out, err := applyJSON(t, w, env, "--project", "--agent", "copilot")
	if err != nil {
		t.Fatalf("charter apply --project --agent copilot: %v\n%s", err, out)
	}
	reports["proj"] = proj
	m := newMock(t)
	runCopilot(t, w, env, m, "hi")
	start := firstChatTurn(t, m)

	for _, tag := range levelTags {
		level := func(t *testing.T) {
			t.Helper()
			if tag == "user" {
				if userErr != nil {
					t.Fatalf("charter apply --agent copilot: %v\n%s", userErr, userOut)
				}
			}
		}
		t.Run(tag+"/rule-always", func(t *testing.T) {
			level(t)
			seenOnce(t, start, markAlways(tag), "always-on rule always-"+tag)
		})
		t.Run(tag+"/block", func(t *testing.T) {
			level(t)
			seenOnce(t, start, markBlock(tag), "charter's block ("+tag+")")
		})
		t.Run(tag+"/skill", func(t *testing.T) {
			level(t)
			seenOnce(t, start, markSkill(tag), "skill skill-"+tag)
		})
		t.Run(tag+"/subagent", func(t *testing.T) {
			level(t)
			seenOnce(t, start, markSubagent(tag), "subagent agent-"+tag)
		})
		t.Run(tag+"/rule-glob-waits", func(t *testing.T) {
			level(t)
			if n := count(start, markGlob(tag)); n != 0 {
				t.Errorf("glob rule go-%s: its body reached the model %d times at start", tag, n)
			}
			if line := globListed(tag).FindString(start); line == "" {
				t.Errorf("glob rule go-%s: not listed with its pattern among the instruction files Copilot reads on demand", tag)
			} else {
				t.Logf("glob rule go-%s listed: %s", tag, line)
			}
		})
		t.Run(tag+"/command", func(t *testing.T) {
			level(t)
			path, state := reports[tag].file(t, "copilot", "command", "cmd-"+tag)
			if state == "unsupported" {
				if path != "" {
					t.Errorf("command cmd-%s: unsupported but with a path %s", tag, path)
				}
				return
			}
			// Copilot lists the commands it reads (.claude/commands/) as skills.
			if count(start, markCmdDesc(tag)) == 0 {
				t.Fatalf("command cmd-%s: charter wrote %s (%s) but Copilot told the model nothing of it", tag, path, state)
			}
			seenOnce(t, start, markCmdDesc(tag), "command cmd-"+tag)
		})
	}
}

// TestCopilotAfterApplyAll: `charter apply --project --agent all` writes
// for every agent, and Copilot reads several of their files
// (.github/instructions/, .claude/rules/, AGENTS.md, CLAUDE.md,
// .claude/commands/, .agents/skills/). It must still see each item once
// and charter's block once.
func TestCopilotAfterApplyAll(t *testing.T) {
	bin(t, "copilot")
	w := newWorld(t)
	writeCharterItems(t, filepath.Join(w.project, ".charter"), "proj")
	write(t, w.project, ".charter/settings.yaml", "")
	env := charterEnv(t, w)
	if _, out, err := applyJSON(t, w, env, "--project", "--agent", "all"); err != nil {
		t.Fatalf("charter apply --project --agent all: %v\n%s", err, out)
	}
	m := newMock(t)
	runCopilot(t, w, env, m, "hi")
	start := firstChatTurn(t, m)

	t.Run("rule-always", func(t *testing.T) {
		seenOnce(t, start, markAlways("proj"), "always-on rule always-proj")
	})
	t.Run("block", func(t *testing.T) {
		seenOnce(t, start, markBlock("proj"), "charter's block")
	})
	t.Run("rule-glob", func(t *testing.T) {
		if n := count(start, markGlob("proj")); n > 1 {
			t.Errorf("glob rule go-proj: its body reached the model %d times at start, want at most once", n)
		}
		t.Logf("glob rule go-proj: %s", lineOf(start, markGlob("proj")))
	})
	t.Run("skill", func(t *testing.T) { seenOnce(t, start, markSkill("proj"), "skill skill-proj") })
	t.Run("subagent", func(t *testing.T) { seenOnce(t, start, markSubagent("proj"), "subagent agent-proj") })
	t.Run("command", func(t *testing.T) { seenOnce(t, start, markCmdDesc("proj"), "command cmd-proj") })
}
