package agenttest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// codexEnv is the environment Codex runs in: its home under the world's
// HOME and the variable the mock provider's env_key names.
func codexEnv(w world) []string {
	return w.env("CODEX_HOME="+filepath.Join(w.home, ".codex"), "MOCK_KEY=dummy", "TMPDIR="+filepath.Join(w.home, "tmp"))
}

// writeCodexConfig points Codex at the mock and trusts the project (Codex
// reads a project's .codex/ only then). It keeps whatever charter wrote in
// config.toml: top-level keys go first, tables after.
func writeCodexConfig(t *testing.T, w world, m *Mock) {
	t.Helper()
	path := filepath.Join(w.home, ".codex", "config.toml")
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	head := "model_provider = \"mock\"\n"
	tail := "\n[model_providers.mock]\nname = \"mock\"\nbase_url = " + strconv.Quote(m.URL+"/v1") +
		"\nwire_api = \"responses\"\nenv_key = \"MOCK_KEY\"\nrequest_max_retries = 0\nstream_max_retries = 0\n" +
		"\n[projects." + strconv.Quote(w.project) + "]\ntrust_level = \"trusted\"\n"
	write(t, filepath.Join(w.home, ".codex"), "config.toml", head+string(old)+tail)
	if err := os.MkdirAll(filepath.Join(w.home, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// runCodex runs `codex exec` in the project with prompt and fails the
// test unless it ends well with the mock's reply.
func runCodex(t *testing.T, w world, prompt string) string {
	t.Helper()
	out, err := run(t, w.project, codexEnv(w), bin(t, "codex"), "exec", "--skip-git-repo-check", "--color", "never", prompt)
	if err != nil || !strings.Contains(out, responsesReply) {
		t.Fatalf("codex exec %q: %v\n%s", prompt, err, out)
	}
	return out
}

// TestCodexLoadsCharter: after charter apply (user level, into CODEX_HOME)
// and apply --project, `codex exec` tells the model each item once: the
// always-on rule and the glob rule (with the line naming its glob) inside
// charter's block in AGENTS.md, each level's block once, each skill in
// Codex's skills list once, each subagent among spawn_agent's roles once.
// Commands: Codex 0.169 reads no prompts folder, so a command charter
// writes must reach the model some other way, or be reported unsupported.
func TestCodexLoadsCharter(t *testing.T) { testCodexLoads(t, "codex") }

// TestCodexLoadsCharterAll: the same after apply --agent all at both
// levels, where charter writes every agent's files and Codex must still
// see each item once.
func TestCodexLoadsCharterAll(t *testing.T) { testCodexLoads(t, "all") }

func testCodexLoads(t *testing.T, agent string) {
	bin(t, "codex")
	w := newCharterWorld(t)
	m := newMock(t)
	reports := applyBoth(t, w, codexEnv(w), agent)
	writeCodexConfig(t, w, m)
	runCodex(t, w, "hi")
	sent := firstResponsesTurn(t, m)

	for _, tag := range levelTags {
		checkStartItems(t, sent, tag)
		t.Run(tag+"/subagent", func(t *testing.T) { once(t, sent, markSubagent(tag), "subagent agent-"+tag) })
		t.Run(tag+"/command", func(t *testing.T) {
			path, state := reports[tag].file(t, "codex", "command", "cmd-"+tag)
			if state == "unsupported" {
				if path != "" {
					t.Errorf("command cmd-%s: unsupported but with a path %s", tag, path)
				}
				return
			}
			// Written somewhere: Codex must list it (as a skill, say), since
			// codex exec never runs a slash command itself.
			if !strings.Contains(sent, markCmdDesc(tag)) && !strings.Contains(sent, markCommand(tag)) {
				t.Errorf("command cmd-%s: charter wrote %s (%s) but Codex told the model nothing of it", tag, path, state)
			}
		})
	}
	t.Run("no-prompts-folder", func(t *testing.T) {
		if _, err := os.Stat(filepath.Join(w.home, ".codex", "prompts")); err == nil {
			t.Errorf("charter wrote %s, which Codex 0.169 does not read", filepath.Join(w.home, ".codex", "prompts"))
		}
	})
}
