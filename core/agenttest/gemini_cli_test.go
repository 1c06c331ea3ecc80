package agenttest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// geminiEnv is the environment Gemini CLI runs in: the mock's base URL, a
// dummy key, the workspace trusted (headless runs refuse an untrusted
// folder), its error reports kept inside the world, and no relaunch of
// itself for a larger heap (that doubles its start on a loaded machine).
func geminiEnv(w world, m *Mock) []string {
	return w.env("GOOGLE_GEMINI_BASE_URL="+m.URL, "GEMINI_API_KEY=dummy", "GEMINI_CLI_TRUST_WORKSPACE=true",
		"TMPDIR="+filepath.Join(w.home, "tmp"), "GEMINI_CLI_NO_RELAUNCH=true")
}

// writeGeminiSettings merges the API-key auth type into
// ~/.gemini/settings.json (the base URL alone picks one that -p refuses),
// keeping every key charter wrote there.
func writeGeminiSettings(t *testing.T, w world) {
	t.Helper()
	path := filepath.Join(w.home, ".gemini", "settings.json")
	settings := map[string]any{}
	if data, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(data, &settings); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	} else if !os.IsNotExist(err) {
		t.Fatal(err)
	}
	security, _ := settings["security"].(map[string]any)
	if security == nil {
		security = map[string]any{}
	}
	auth, _ := security["auth"].(map[string]any)
	if auth == nil {
		auth = map[string]any{}
	}
	auth["selectedType"] = "gemini-api-key"
	security["auth"], settings["security"] = auth, security
	data, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(w.home, ".gemini"), "settings.json", string(data))
	if err := os.MkdirAll(filepath.Join(w.home, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// acknowledgeGeminiAgents records the project's subagents as reviewed, as
// Gemini CLI's prompt does: it registers a project agent only when
// ~/.gemini/acknowledgments/agents.json maps the project root and the
// agent's name to the sha256 of its file, and in a headless run it skips
// the others without a word.
func acknowledgeGeminiAgents(t *testing.T, w world) {
	t.Helper()
	dir := filepath.Join(w.project, ".gemini", "agents")
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	acks := map[string]string{}
	nameLine := regexp.MustCompile(`(?m)^name:\s*"?([^"\n]+?)"?\s*$`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".md")
		if m := nameLine.FindSubmatch(data); m != nil {
			name = string(m[1])
		}
		sum := sha256.Sum256(data)
		acks[name] = hex.EncodeToString(sum[:])
	}
	data, err := json.Marshal(map[string]any{w.project: acks})
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(w.home, ".gemini"), "acknowledgments/agents.json", string(data))
}

// runGemini runs `gemini -p PROMPT` in the project and returns its output
// (Gemini reports a subagent it rejects there); the mock's reply must end
// the run well.
func runGemini(t *testing.T, w world, m *Mock, prompt string) string {
	t.Helper()
	out, err := run(t, w.project, geminiEnv(w, m), bin(t, "gemini"), "-p", prompt)
	if err != nil || !strings.Contains(out, geminiReply) {
		t.Fatalf("gemini -p %q: %v\n%s", prompt, err, out)
	}
	return out
}

// TestGeminiCLILoadsCharter: after charter apply (user level, ~/.gemini)
// and apply --project, Gemini CLI tells the model each item once: the
// always-on rule and the glob rule (with the line naming its glob) inside
// charter's block in GEMINI.md, each level's block once, each skill once,
// each subagent once among its available subagents; and `gemini -p
// /cmd-NAME` runs charter's TOML command, its body reaching the model once.
func TestGeminiCLILoadsCharter(t *testing.T) { testGeminiLoads(t, "gemini") }

// TestGeminiCLILoadsCharterAll: the same start after apply --agent all at
// both levels (AGENTS.md, .agents/skills and the other agents' files
// beside Gemini's own): still each item once.
func TestGeminiCLILoadsCharterAll(t *testing.T) { testGeminiLoads(t, "all") }

func testGeminiLoads(t *testing.T, agent string) {
	bin(t, "gemini")
	w := newCharterWorld(t)
	m := newMock(t)
	applyBoth(t, w, w.env(), agent)
	writeGeminiSettings(t, w)
	acknowledgeGeminiAgents(t, w)
	out := runGemini(t, w, m, "hi")
	sent := firstGeminiTurn(t, m)

	for _, tag := range levelTags {
		checkStartItems(t, sent, tag)
		t.Run(tag+"/subagent", func(t *testing.T) {
			if said := linesAbout(out, "agent-"+tag+".md"); said != "" {
				t.Errorf("subagent agent-%s: Gemini CLI rejected its file:\n%s", tag, said)
			}
			once(t, sent, markSubagent(tag), "subagent agent-"+tag)
		})
	}
	if agent == "all" {
		return // the rest is Gemini's own files either way
	}
	// Gemini's own gate: without the acknowledgment the project's subagent
	// is skipped silently (charter's reports should say so); a user-level
	// one needs none.
	t.Run("proj/subagent-unacknowledged", func(t *testing.T) {
		if err := os.Remove(filepath.Join(w.home, ".gemini", "acknowledgments", "agents.json")); err != nil {
			t.Fatal(err)
		}
		m := newMock(t)
		out := runGemini(t, w, m, "hi")
		sent := firstGeminiTurn(t, m)
		if said := linesAbout(out, "agent-proj.md"); said != "" {
			t.Errorf("subagent agent-proj: Gemini CLI rejected its file:\n%s", said)
		}
		if n := count(sent, markSubagent("proj")); n != 0 {
			t.Errorf("an unacknowledged project subagent reached the model %d times: Gemini CLI dropped its gate", n)
		}
		once(t, sent, markSubagent("user"), "user-level subagent agent-user, which needs no acknowledgment")
	})
	// A command is sent only when it runs: one run each, on a fresh mock.
	for _, tag := range levelTags {
		t.Run(tag+"/command", func(t *testing.T) {
			m := newMock(t)
			runGemini(t, w, m, "/cmd-"+tag)
			once(t, firstGeminiTurn(t, m), markCommand(tag), "command cmd-"+tag)
		})
	}
}

// linesAbout is each line of out that names s, with the line after it
// (Gemini CLI puts the reason there).
func linesAbout(out, s string) string {
	lines := strings.Split(out, "\n")
	var b strings.Builder
	for i, l := range lines {
		if strings.Contains(l, s) {
			b.WriteString(l + "\n")
			if i+1 < len(lines) {
				b.WriteString(lines[i+1] + "\n")
			}
		}
	}
	return b.String()
}
