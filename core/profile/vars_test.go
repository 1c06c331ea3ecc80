package profile_test

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/profile"
)

func TestProfileVars(t *testing.T) {
	const home = "/home/u/.agent-switch"
	s := core.NewSystem(afero.NewMemMapFs(), []string{"HOME=/home/u",
		"CLAUDE_CONFIG_DIR=" + home + "/claude",         // a provider, no profile
		"CODEX_HOME=" + home + "/codex/work/config",     // selects
		"AAA_CONFIG_DIR=/elsewhere",                     // outside: nothing to say
		"ZED_CONFIG_DIR=" + home + "/zed/team/config",   // valid, but too late
		"BAD_CONFIG_DIR=" + home + "/bad/not ok/config", // invalid name
		"HOMEONLY_CONFIG_DIR=" + home,                   // the home itself
		"BLANK_CONFIG_DIR=  ",                           // unset
	}, time.Now, func() (string, error) { return "/work", nil }, profile.Guard)
	got := map[string]profile.ProfileVar{}
	var order []string
	for _, v := range profile.Vars(s) {
		got[v.Name] = v
		order = append(order, v.Name)
	}
	want := []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "AAA_CONFIG_DIR", "BAD_CONFIG_DIR", "HOMEONLY_CONFIG_DIR", "ZED_CONFIG_DIR"}
	if len(order) != len(want) {
		t.Fatalf("vars %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("vars %v, want %v", order, want)
		}
	}
	if !got["CODEX_HOME"].Selected || got["CODEX_HOME"].Ignored != "" {
		t.Errorf("CODEX_HOME: %+v", got["CODEX_HOME"])
	}
	for name, reason := range map[string]string{
		"CLAUDE_CONFIG_DIR":   "names a provider but no profile",
		"BAD_CONFIG_DIR":      "characters other than",
		"HOMEONLY_CONFIG_DIR": "the agent-switch home itself",
		"ZED_CONFIG_DIR":      "already chose",
		"AAA_CONFIG_DIR":      "",
	} {
		v := got[name]
		if v.Selected || (reason == "") != (v.Ignored == "") || !strings.Contains(v.Ignored, reason) {
			t.Errorf("%s: %+v, want ignored for %q", name, v, reason)
		}
	}
	if p := profile.Active(s); p.Name() != "codex/work" {
		t.Errorf("active profile %q", p.Name())
	}
}

func TestMixed(t *testing.T) {
	const home = "/home/u/.agent-switch"
	sys := func(env ...string) *core.System {
		return core.NewSystem(afero.NewMemMapFs(), append([]string{"HOME=/home/u"}, env...), time.Now, func() (string, error) { return "/work", nil }, profile.Guard)
	}
	if m := profile.Mixed(sys("CLAUDE_CONFIG_DIR="+home+"/claude/a/config", "ZED_CONFIG_DIR="+home+"/claude/b/config")); m != nil {
		t.Errorf("one provider: %v, want nil", m)
	}
	m := profile.Mixed(sys("CLAUDE_CONFIG_DIR="+home+"/claude/a/config", "CODEX_HOME="+home+"/codex/w/config"))
	if len(m) != 2 || m[0].Variable != "CLAUDE_CONFIG_DIR" || m[1].Provider != "codex" || m[1].Profile != "w" {
		t.Errorf("two providers: %+v", m)
	}
}
