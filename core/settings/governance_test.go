package settings

import (
	"os"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
)

const govPolicy = `permissions:
  deny: ["shell:git push --force", "read:.env"]
  ask: ["shell:git push"]
mcp:
  allowed: [github, "https://mcp.example.com/"]
  required: [github]
  servers:
    github:
      url: https://mcp.example.com/github
      headers: {Authorization: "Bearer ${GITHUB_TOKEN}"}
`

func TestRuleGrammarRefusesBadRules(t *testing.T) {
	for in, want := range map[string]string{
		"shell:":          "names no command",
		"shell:   ":       "names no command",
		"read:../x":       "leads out of the project",
		"write:src/../..": "leads out of the project",
		"read:~/../x":     "leads out of the project",
		"read:/etc/x":     "absolute path",
		"exec:rm":         `unknown kind "exec": use shell, read, write, web or mcp`,
		"rm -rf":          "has no kind",
		"web:https://x":   "domain alone",
		"mcp:a/b/c":       "mcp:SERVER or mcp:SERVER/TOOL",
	} {
		_, err := ParseText(KeyPermissionsDeny, in)
		if core.ErrorCode(err) != core.CodeInvalidValue || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	for _, ok := range []string{"shell:git push --force", "read:~/.ssh/**", "write:src/**/*.go", "web:*.example.com", "mcp:github/create_issue"} {
		if _, err := ParseText(KeyPermissionsAllow, ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
}

func TestRuleMatching(t *testing.T) {
	must := func(s string) Rule {
		r, err := ParseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, c := range []struct {
		rule, action string
		want         bool
	}{
		{"shell:git push", "shell:git push --force origin", true},
		{"shell:git push", "shell:git pushx", false},
		{"read:.env", "read:.env", true},
		{"read:**/.env", "read:a/b/.env", true},
		{"read:secrets/*", "read:secrets/a/b", false},
		{"web:*.example.com", "web:api.example.com", true},
		{"mcp:github", "mcp:github/create_issue", true},
		{"mcp:git", "mcp:github", false},
	} {
		if got := must(c.rule).Matches(must(c.action)); got != c.want {
			t.Errorf("%s matches %s: %v", c.rule, c.action, got)
		}
	}
}

// Every way a lower layer might loosen the policy is refused with
// locked_by_policy, at every writable layer, and nothing is written.
func TestLowerLayersCannotLoosenThePolicy(t *testing.T) {
	st, _, _ := layeredStore(t, govPolicy)
	for _, layer := range WritableLayers() {
		target, err := st.Target(layer)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			key string
			v   []string
		}{
			{KeyPermissionsAllow, []string{"shell:git push --force"}},
			{KeyPermissionsAsk, []string{"shell:git push --force --no-verify"}},
			{KeyPermissionsAllow, []string{"shell:git"}},      // wider than the deny: still meets it
			{KeyPermissionsAllow, []string{"shell:git push"}}, // the policy asks
			{KeyMCPDisabled, []string{"github"}},
		} {
			key, v := c.key, c.v
			_, err := target.Write(Update{Set: map[string]any{key: v}})
			if core.ErrorCode(err) != core.CodeLockedByPolicy || !strings.Contains(err.Error(), "nothing was written") {
				t.Errorf("%s %s=%v: %v", layer, key, v, err)
			}
			if _, err := os.Stat(target.Path()); err == nil {
				t.Errorf("%s: %s was written", layer, target.Path())
			}
		}
	}
	// Adding denials is always allowed.
	if _, err := st.Write(Update{Set: map[string]any{KeyPermissionsDeny: []string{"shell:rm -rf"}}}); err != nil {
		t.Fatal(err)
	}
}

// A file edited by hand past the check: the loosening rule is reported
// as refused and never in force; the policy's deny still decides.
func TestHandEditedLooseningIsRefusedOnRead(t *testing.T) {
	st, project, _ := layeredStore(t, govPolicy)
	data := "permissions:\n  allow: [\"shell:git push --force\", \"shell:go test\"]\nmcp:\n  disabled: [github]\n  servers:\n    notes:\n      command: notes-mcp\n      args: [--stdio]\n"
	if err := os.WriteFile(project.SettingsPath(), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	snap, err := st.Read()
	if err != nil {
		t.Fatal(err)
	}
	g := snap.Gov
	if len(g.Refused) != 1 || g.Refused[0].Rule != "shell:git push --force" || g.Refused[0].Layer != LayerProject {
		t.Fatalf("refused %+v", g.Refused)
	}
	e := g.Decide(Rule{Kind: RuleShell, Arg: "git push --force origin main"})
	if e == nil || e.Verdict != "deny" || e.Layer != LayerPolicy || !e.Locked {
		t.Fatalf("decided by %+v", e)
	}
	if e := g.Decide(Rule{Kind: RuleShell, Arg: "go test ./..."}); e == nil || e.Verdict != "allow" || e.Origin != project.SettingsPath() {
		t.Fatalf("go test decided by %+v", e)
	}
	states := map[string]string{}
	for _, s := range g.Servers {
		states[s.Name] = g.ServerState(s)
	}
	if states["github"] != "enabled" || states["notes"] != "not_allowed" {
		t.Fatalf("states %v (github is required, notes is not in mcp.allowed)", states)
	}
}

func TestServersRefuseLiteralSecrets(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"      command: x\n      env: {GITHUB_TOKEN: ghp_abcdefabcdefabcdefabcdefabcdef12}\n", "GITHUB_TOKEN is a literal secret: write ${VAR}"},
		{"      url: https://x.example.com\n      headers: {Authorization: \"Bearer abc123\"}\n", "Authorization is a literal secret"},
		{"      command: x\n      url: https://x\n", "command or url, not both"},
		{"      args: [a]\n", "give command"},
		{"      command: x\n      cwd: /\n", "unknown field"},
	} {
		err := Validate("/p/settings.yaml", []byte("mcp:\n  servers:\n    s1:\n"+c.yaml))
		if core.ErrorCode(err) != core.CodeMalformedSettings || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "/p/settings.yaml:") {
			t.Errorf("%q: %v, want %q", c.yaml, err, c.want)
		}
	}
	ok := "mcp:\n  servers:\n    s1:\n      command: x\n      env: {GITHUB_TOKEN: \"${GITHUB_TOKEN}\", LOG_LEVEL: debug}\n"
	if err := Validate("/p/settings.yaml", []byte(ok)); err != nil {
		t.Fatal(err)
	}
}

func TestPolicyGovernanceSectionsAreChecked(t *testing.T) {
	for in, want := range map[string]string{
		"permissions:\n  deny: [\"shell:\"]\n": "names no command",
		"permissions:\n  forbid: []\n":         `unknown list "forbid"`,
		"mcp:\n  alowed: [x]\n":                `unknown key "alowed"`,
	} {
		_, err := ParsePolicy("/etc/p.yaml", []byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}
