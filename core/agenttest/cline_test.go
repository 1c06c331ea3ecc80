package agenttest

import (
	"regexp"
	"strings"
	"testing"
)

// runCline points Cline CLI at m (`cline auth -p openai -b …/v1`, its
// OpenAI-compatible provider, saved in the throwaway home) and runs
// `cline --json prompt` in the project; it fails the test unless the run
// ends with the mock's reply. A one-word prompt would be taken for a
// command, so prompts here have two words. The local session backend
// keeps Cline from starting its hub daemon, which would outlive the test.
func runCline(t *testing.T, w world, env []string, m *Mock, prompt string) {
	t.Helper()
	env = append(env, "CLINE_SESSION_BACKEND_MODE=local", "CLINE_NO_AUTO_UPDATE=1")
	c := bin(t, "cline")
	if out, err := run(t, w.project, env, c, "auth", "-p", "openai", "-k", "dummy", "-m", "m", "-b", m.URL+"/v1"); err != nil {
		t.Fatalf("cline auth: %v\n%s", err, out)
	}
	out, err := run(t, w.project, env, c, "--json", prompt)
	if err != nil || !strings.Contains(out, chatReply) {
		t.Fatalf("cline --json %q: %v\n%s\nrequests: %s", prompt, err, out, requestLines(m))
	}
}

// TestClineLoadsCharter: after `charter apply --project --agent cline`,
// `cline` tells the model charter's block once (.clinerules/charter.md),
// each rule once from its own file in .clinerules/ (the CLI loads every
// rule whole, so the glob rule comes with the line naming its glob), no
// workflow body, and the skill's name once in its skills tool, which
// lists names only.
func TestClineLoadsCharter(t *testing.T) {
	bin(t, "cline")
	w, env, _ := applyProject(t, "cline")
	m := newMock(t)
	runCline(t, w, env, m, "say hi")
	start := firstAgentTurn(t, m)

	checkWholeRules(t, start)
	t.Run("proj/command-not-a-rule", func(t *testing.T) {
		if n := count(start, markCommand("proj")); n != 0 {
			t.Errorf("command cmd-proj: its body (.clinerules/workflows/) reached the model %d times before anyone ran it", n)
		}
	})
	t.Run("proj/skill", func(t *testing.T) {
		listed := regexp.MustCompile(`Available skills: [^\n]*\bskill-proj\b`).FindAllString(start, -1)
		if len(listed) != 1 {
			t.Errorf("skill skill-proj: named in Cline's skill list %d times, want once", len(listed))
		}
	})
}
