package apply

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/settings"
)

// A shell rule as Zed's terminal pattern matches what the rule matches
// (the words, then a blank or the end) and reads back as the same prefix.
func TestZedShellPattern(t *testing.T) {
	for _, c := range []struct {
		rule       string
		match, not []string
	}{
		{"shell:git push", []string{"git push", "git push --force origin", "git  push\t-f"}, []string{"git pushx", "xgit push", "git"}},
		{"shell:rm -rf", []string{"rm -rf /tmp/x"}, []string{"rm -rfv x", "rm -r"}},
		{"shell:make a.b", []string{"make a.b"}, []string{"make axb"}},
	} {
		r, err := settings.ParseRule(c.rule)
		if err != nil {
			t.Fatal(err)
		}
		keys, entry, ok := zedRule("deny", r)
		if !ok || strings.Join(keys, ".") != "agent.tool_permissions.tools.terminal.always_deny" {
			t.Fatalf("%s: %v %s %v", c.rule, keys, entry, ok)
		}
		var e struct{ Pattern string }
		_ = json.Unmarshal([]byte(entry), &e)
		re := regexp.MustCompile(e.Pattern)
		for _, m := range c.match {
			if !re.MatchString(m) {
				t.Errorf("%s (%s) does not match %q", c.rule, e.Pattern, m)
			}
		}
		for _, m := range c.not {
			if re.MatchString(m) {
				t.Errorf("%s (%s) matches %q", c.rule, e.Pattern, m)
			}
		}
		if p, ok := ZedShellPrefix(e.Pattern); !ok || "shell:"+p != c.rule {
			t.Errorf("ZedShellPrefix(%s) = %q %v, want %s", e.Pattern, p, ok, c.rule)
		}
	}
	for _, p := range []string{"^cargo\\s+(build|test)", "sudo\\s", "^a(\\s|$)x", "^(\\s|$)", "^a.b(\\s|$)"} {
		if got, ok := ZedShellPrefix(p); ok {
			t.Errorf("ZedShellPrefix(%q) = %q, want not charter's form", p, got)
		}
	}
	r, _ := settings.ParseRule("read:.env")
	if _, _, ok := zedRule("deny", r); ok {
		t.Error("a read rule has a Zed pattern")
	}
}

// The policy's deny holds in Zed's file: taken out by hand, it comes
// back; an allow of the same command added by hand goes. The user's own
// entries and comments stay.
func TestZedLockRestored(t *testing.T) {
	sys, snap, proj, base := govSetup(t, LevelUser)
	file := filepath.Join(base, ".config", "zed", "settings.json")
	coretest.WriteFile(t, file, "{\n  // mine\n  \"theme\": \"One Dark\"\n}\n")
	req := Request{Agents: []string{"zed"}, Project: proj}
	run := func() {
		full, err := PlanAll(context.Background(), sys, snap, req)
		if err != nil {
			t.Fatal(err)
		}
		govRunFull(t, sys, full)
	}
	run()
	deny := `{"pattern": "^git\\s+push\\s+--force(\\s|$)"}`
	holds(t, file, "// mine", `"always_deny": [`, `"pattern": "^git\\s+push\\s+--force(\\s|$)"`)
	edit(t, file, `"pattern": "^git\\s+push\\s+--force(\\s|$)"`, `"pattern": "^ls(\\s|$)"`)
	run()
	holds(t, file, `"pattern": "^git\\s+push\\s+--force(\\s|$)"`, `"pattern": "^ls(\\s|$)"`)
	edit(t, file, `"always_allow": [`, `"always_allow": [`+strings.Replace(deny, `{`, `{"case_sensitive": true, `, 1)+`, `)
	run()
	holds(t, file, "// mine", `"pattern": "^go(\\s|$)"`)
	if data, _ := os.ReadFile(file); strings.Count(string(data), `--force(\\s|$)`) != 1 {
		t.Errorf("the hand-written allow of the denied command stayed:\n%s", data)
	}
}

// With rules and no server, Zed's and Gemini's settings.json are still
// read as the agents read them, comments kept; uninstall gives them back.
func TestJSONCPermissionsOnly(t *testing.T) {
	for agent, rel := range map[string]string{"zed": ".config/zed/settings.json", "gemini": ".gemini/settings.json"} {
		t.Run(agent, func(t *testing.T) {
			sys, read, _, _ := geminiScope(t, "permissions:\n  deny: [\"shell:rm -rf\"]\n")
			home, _ := sys.Home()
			file := filepath.Join(home, filepath.FromSlash(rel))
			data := "// mine\n{\n  \"theme\": \"x\", /* kept */\n}\n"
			coretest.WriteFile(t, file, data)
			snap := read()
			req := Request{Agents: []string{agent}}
			full, err := PlanAll(context.Background(), sys, snap, req)
			if err != nil {
				t.Fatal(err)
			}
			govRunFull(t, sys, full)
			holds(t, file, "// mine\n{\n  \"theme\": \"x\", /* kept */\n", "rm")
			govRound(t, sys, snap, nil, home, LevelUser, req, full, nil, map[string]string{rel: data})
		})
	}
}
