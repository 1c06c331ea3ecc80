package profile

import (
	"errors"
	"testing"
	"time"

	"github.com/agentkit/charter/core"
	"github.com/spf13/afero"
)

func testSystem(fs afero.Fs, wd string, environ ...string) *core.System {
	return core.NewSystem(fs, environ, time.Now, func() (string, error) { return wd, nil }, Guard)
}

func TestResolveRoot(t *testing.T) {
	str := func(s string) *string { return &s }
	cases := []struct {
		name    string
		env     []string
		flag    *string
		want    core.ConfigRoot
		wantErr bool
	}{
		{"default", nil, nil, core.ConfigRoot{Path: "/home/u/.agentkit/charter", Source: core.SourceDefault}, false},
		{"env", []string{"AGENTKIT_CONFIG_HOME=/srv/c/"}, nil, core.ConfigRoot{Path: "/srv/c", Source: core.SourceEnv}, false},
		{"blank env is unset", []string{"AGENTKIT_CONFIG_HOME=  "}, nil, core.ConfigRoot{Path: "/home/u/.agentkit/charter", Source: core.SourceDefault}, false},
		{"flag beats env", []string{"AGENTKIT_CONFIG_HOME=/srv/c"}, str("/f"), core.ConfigRoot{Path: "/f", Source: core.SourceFlag}, false},
		{"relative flag", nil, str("a/../b"), core.ConfigRoot{Path: "/work/b", Source: core.SourceFlag}, false},
		{"tilde flag", nil, str(" ~/x/ "), core.ConfigRoot{Path: "/home/u/x", Source: core.SourceFlag}, false},
		{"bare tilde", nil, str("~"), core.ConfigRoot{Path: "/home/u", Source: core.SourceFlag}, false},
		{"other user's tilde is a relative name", nil, str("~bob/x"), core.ConfigRoot{Path: "/work/~bob/x", Source: core.SourceFlag}, false},
		{"blank flag", nil, str(" "), core.ConfigRoot{}, true},
		{"empty flag", nil, str(""), core.ConfigRoot{}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testSystem(afero.NewMemMapFs(), "/work", append([]string{"HOME=/home/u"}, c.env...)...)
			got, err := ResolveRoot(s, c.flag)
			if c.wantErr {
				var ue *core.Error
				if !errors.As(err, &ue) || ue.Code() != core.CodeUsage {
					t.Fatalf("want usage error, got %v", err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

func TestNoHome(t *testing.T) {
	s := testSystem(afero.NewMemMapFs(), "/work")
	if _, err := ResolveRoot(s, nil); !errors.Is(err, core.ErrNoHome) {
		t.Fatalf("got %v", err)
	}
	if p := Active(s); p.Active {
		t.Fatalf("profile without a home: %+v", p)
	}
}

func TestActiveProfile(t *testing.T) {
	cases := []struct {
		name              string
		env               []string
		provider, profile string // "" = inactive
	}{
		{"none", nil, "", ""},
		{"claude", []string{"CLAUDE_CONFIG_DIR=/home/u/.agent-switch/claude/work/config"}, "claude", "work"},
		{"two segments", []string{"CLAUDE_CONFIG_DIR=/home/u/.agent-switch/claude/work"}, "claude", "work"},
		{"one segment", []string{"CLAUDE_CONFIG_DIR=/home/u/.agent-switch/claude"}, "", ""},
		{"bare home", []string{"CLAUDE_CONFIG_DIR=/home/u/.agent-switch/"}, "", ""},
		{"outside", []string{"CLAUDE_CONFIG_DIR=/elsewhere/claude/work"}, "", ""},
		{"sibling prefix", []string{"CLAUDE_CONFIG_DIR=/home/u/.agent-switchx/claude/work"}, "", ""},
		{"dot-dot escapes", []string{"CLAUDE_CONFIG_DIR=/home/u/.agent-switch/../x/claude/work"}, "", ""},
		{"codex", []string{"CODEX_HOME=/home/u/.agent-switch/codex/main/config"}, "codex", "main"},
		{"claude before codex", []string{"CODEX_HOME=/home/u/.agent-switch/codex/main", "CLAUDE_CONFIG_DIR=/home/u/.agent-switch/claude/w"}, "claude", "w"},
		{"codex before others", []string{"AAA_CONFIG_DIR=/home/u/.agent-switch/aaa/p", "CODEX_HOME=/home/u/.agent-switch/codex/main"}, "codex", "main"},
		{"lexical order", []string{"ZED_CONFIG_DIR=/home/u/.agent-switch/zed/z", "GEMINI_CONFIG_DIR=/home/u/.agent-switch/gemini/g"}, "gemini", "g"},
		{"invalid skipped", []string{"CLAUDE_CONFIG_DIR=/home/u/.agent-switch/cl aude/w", "GEMINI_CONFIG_DIR=/home/u/.agent-switch/gemini/g"}, "gemini", "g"},
		{"invalid profile", []string{"CLAUDE_CONFIG_DIR=/home/u/.agent-switch/claude/w.x"}, "", ""},
		{"home is no signal", []string{"AGENT_SWITCH_HOME=/as", "HOME=/as/a/b"}, "", ""},
		{"custom home", []string{"AGENT_SWITCH_HOME=/as/", "CLAUDE_CONFIG_DIR=/as/claude/x"}, "claude", "x"},
		{"custom home hides default", []string{"AGENT_SWITCH_HOME=/as", "CLAUDE_CONFIG_DIR=/home/u/.agent-switch/claude/x"}, "", ""},
		{"blank custom home", []string{"AGENT_SWITCH_HOME= ", "CLAUDE_CONFIG_DIR=/home/u/.agent-switch/claude/x"}, "claude", "x"},
		{"tilde value", []string{"CLAUDE_CONFIG_DIR=~/.agent-switch/claude/t"}, "claude", "t"},
		{"relative value", []string{"CLAUDE_CONFIG_DIR=.agent-switch/claude/r"}, "claude", "r"},
		{"empty value", []string{"CLAUDE_CONFIG_DIR=", "CODEX_HOME=/home/u/.agent-switch/codex/c"}, "codex", "c"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testSystem(afero.NewMemMapFs(), "/home/u", append([]string{"HOME=/home/u"}, c.env...)...)
			p := Active(s)
			if c.provider == "" {
				if p.Active || p.Provider != nil || p.Profile != nil {
					t.Fatalf("want inactive, got %s", p.Name())
				}
				return
			}
			if !p.Active || *p.Provider != c.provider || *p.Profile != c.profile {
				t.Fatalf("got %+v", p)
			}
		})
	}
}
