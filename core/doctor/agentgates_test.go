package doctor_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/doctor"
	"github.com/agentkit/charter/core/session"
)

// charterStop is a hooks.json holding charter's Stop entry; stopHash is
// the hash Codex 0.169 reports for it (hooks/list of its app-server).
const (
	charterStop = `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"charter gate hook codex-stop","timeout":1920}]}]}}`
	stopHash    = "sha256:f5a0b67b6b603235baa3b1c5f53f8a20b684e7e37e2912db7c25d1edc5de561c"
)

// codexReview is what Codex's review of the only Stop handler of file
// records in config.toml.
func codexReview(file string) string {
	return "\n[hooks.state." + strconv.Quote(file+":stop:0:0") + "]\ntrusted_hash = " + strconv.Quote(stopHash) + "\n"
}

// Codex skips charter's Stop hook until the user reviews it: doctor warns
// with how, at user level and for the project's file, whose project Codex
// must trust too; reviewed (and trusted) is ok.
func TestCodexHookReview(t *testing.T) {
	m := coretest.New(t)
	userFile := filepath.Join(m.Home, ".codex", "hooks.json")
	cfg := filepath.Join(m.Home, ".codex", "config.toml")
	coretest.WriteFile(t, userFile, charterStop)
	repo := filepath.Join(m.Dir, "repo")
	projFile := filepath.Join(repo, ".codex", "hooks.json")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "settings.yaml"), "")
	coretest.WriteFile(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
	coretest.WriteFile(t, projFile, charterStop)
	run := func() map[string]doctor.Check {
		return byName(runAll(env{Session: session.New(m.Sys, session.Options{ProjectDir: &repo})}))
	}

	checks := run()
	c := checks["codex-hook-review"]
	if c.Status != doctor.Warn || c.Message != "Codex skips charter's Stop hook in "+userFile+" until you review it: the gates do not run when Codex stops" ||
		!strings.HasPrefix(c.Fix, "run `codex` and choose \"Trust all and continue\" at \"Hooks need review\"") || !strings.Contains(c.Fix, "moving charter's binary") {
		t.Errorf("unreviewed user-level hook: %+v", c)
	}
	if c := checks["codex-hook-review:project"]; c.Status != doctor.Warn || !strings.Contains(c.Message, projFile+" until you review it") || !strings.HasPrefix(c.Fix, "run `codex` in "+repo+" and choose") {
		t.Errorf("unreviewed project hook: %+v", c)
	}
	if c := checks["codex-project-trust"]; c.Status != doctor.Warn || !strings.Contains(c.Message, "does not trust "+repo) || !strings.Contains(c.Fix, `[projects."`+repo+`"]`) {
		t.Errorf("untrusted project: %+v", c)
	}
	if _, err := os.Stat(cfg); err == nil {
		t.Error("doctor wrote Codex's config.toml")
	}

	coretest.WriteFile(t, cfg, "model = \"o3\"\n"+codexReview(userFile)+codexReview(projFile)+
		"\n[projects."+strconv.Quote(repo)+"]\ntrust_level = \"trusted\"\n")
	checks = run()
	for _, n := range []string{"codex-hook-review", "codex-hook-review:project"} {
		if c := checks[n]; c.Status != doctor.OK || !strings.Contains(c.Message, "Codex runs charter's Stop hook (reviewed in "+cfg+")") {
			t.Errorf("%s reviewed: %+v", n, c)
		}
	}
	if c, ok := checks["codex-project-trust"]; ok {
		t.Errorf("a trusted project: %+v", c)
	}

	// The entry changed since the review (a new gates.timeout): skipped.
	coretest.WriteFile(t, userFile, strings.Replace(charterStop, "1920", "2520", 1))
	if c := run()["codex-hook-review"]; c.Status != doctor.Warn || !strings.Contains(c.Message, "is of an earlier entry") {
		t.Errorf("a review of an earlier entry: %+v", c)
	}
}

// Gemini CLI registers a project subagent only once acknowledged: doctor
// warns per subagent charter projected that is not, and is ok once the
// acknowledgment holds the file's sha256 under the project root.
func TestGeminiSubagentAcks(t *testing.T) {
	m := coretest.New(t)
	repo := filepath.Join(m.Dir, "repo")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "settings.yaml"), "")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "subagents", "checker.md"), "---\nname: checker\ndescription: Checks things\n---\nCheck everything.\n")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "subagents", "fixer.md"), "---\nname: fixer\ndescription: Fixes things\n---\nFix it.\n")
	s := session.New(m.Sys, session.Options{ProjectDir: &repo})
	if _, err := s.Apply(context.Background(), session.ApplyRequest{Project: true, Agents: []string{"gemini"}}); err != nil {
		t.Fatal(err)
	}
	run := func() map[string]doctor.Check {
		return byName(runAll(env{Session: session.New(m.Sys, session.Options{ProjectDir: &repo})}))
	}
	acks := filepath.Join(m.Home, ".gemini", "acknowledgments", "agents.json")
	checks := run()
	for _, n := range []string{"checker", "fixer"} {
		c := checks["gemini-subagent:"+n]
		if c.Status != doctor.Warn || !strings.Contains(c.Message, "Gemini CLI skips the subagent "+n+" ("+filepath.Join(repo, ".gemini", "agents", n+".md")+") until you acknowledge it: "+acks+" holds no acknowledgment of it for "+repo) ||
			!strings.HasPrefix(c.Fix, "run `gemini` in "+repo+" and choose \"Acknowledge and Enable\" at \"New Agents Discovered\"") {
			t.Errorf("unacknowledged %s: %+v", n, c)
		}
	}

	// Acknowledged as Gemini's prompt records it: the sha256 of each file.
	sum := func(n string) string {
		data, err := os.ReadFile(filepath.Join(repo, ".gemini", "agents", n+".md"))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256(data)
		return hex.EncodeToString(h[:])
	}
	write := func(v map[string]map[string]string) {
		data, _ := json.Marshal(v)
		coretest.WriteFile(t, acks, string(data))
	}
	write(map[string]map[string]string{repo: {"checker": sum("checker"), "fixer": strings.Repeat("0", 64)}, "/elsewhere": {"fixer": sum("fixer")}})
	checks = run()
	if c, ok := checks["gemini-subagent:checker"]; ok {
		t.Errorf("an acknowledged subagent: %+v", c)
	}
	if c := checks["gemini-subagent:fixer"]; c.Status != doctor.Warn || !strings.Contains(c.Message, "acknowledges an earlier version of the file") {
		t.Errorf("an acknowledgment of another version: %+v", c)
	}
	write(map[string]map[string]string{repo: {"checker": sum("checker"), "fixer": sum("fixer")}})
	if c := run()["gemini-subagents"]; c.Status != doctor.OK || c.Message != "2 project subagents acknowledged in "+acks {
		t.Errorf("all acknowledged: %+v", c)
	}

	coretest.WriteFile(t, acks, "{not json")
	if c := run()["gemini-subagents"]; c.Status != doctor.Warn || !strings.HasPrefix(c.Message, "not checked: "+acks) {
		t.Errorf("unreadable acknowledgments: %+v", c)
	}
}
