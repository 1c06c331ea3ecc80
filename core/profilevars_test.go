package core

import (
	"strings"
	"testing"

	"github.com/spf13/afero"
)

func TestProfileVars(t *testing.T) {
	const home = "/home/u/.agent-switch"
	s := testSystem(afero.NewMemMapFs(), "/work", "HOME=/home/u",
		"CLAUDE_CONFIG_DIR="+home+"/claude",         // a provider, no profile
		"CODEX_HOME="+home+"/codex/work/config",     // selects
		"AAA_CONFIG_DIR=/elsewhere",                 // outside: nothing to say
		"ZED_CONFIG_DIR="+home+"/zed/team/config",   // valid, but too late
		"BAD_CONFIG_DIR="+home+"/bad/not ok/config", // invalid name
		"HOMEONLY_CONFIG_DIR="+home,                 // the home itself
		"BLANK_CONFIG_DIR=  ",                       // unset
	)
	got := map[string]ProfileVar{}
	var order []string
	for _, v := range s.ProfileVars() {
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
	if p := s.ActiveProfile(); p.Name() != "codex/work" {
		t.Errorf("active profile %q", p.Name())
	}
}
