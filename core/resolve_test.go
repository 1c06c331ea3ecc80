package core

import (
	"errors"
	"testing"
	"time"

	"github.com/spf13/afero"
)

func testSystem(fs afero.Fs, wd string, environ ...string) *System {
	return NewSystem(fs, environ, time.Now, func() (string, error) { return wd, nil })
}

func TestResolveRoot(t *testing.T) {
	str := func(s string) *string { return &s }
	cases := []struct {
		name    string
		env     []string
		flag    *string
		want    ConfigRoot
		wantErr bool
	}{
		{"default", nil, nil, ConfigRoot{"/home/u/.agentkit/charter", SourceDefault}, false},
		{"env", []string{"AGENTKIT_CONFIG_HOME=/srv/c/"}, nil, ConfigRoot{"/srv/c", SourceEnv}, false},
		{"blank env is unset", []string{"AGENTKIT_CONFIG_HOME=  "}, nil, ConfigRoot{"/home/u/.agentkit/charter", SourceDefault}, false},
		{"flag beats env", []string{"AGENTKIT_CONFIG_HOME=/srv/c"}, str("/f"), ConfigRoot{"/f", SourceFlag}, false},
		{"relative flag", nil, str("a/../b"), ConfigRoot{"/work/b", SourceFlag}, false},
		{"tilde flag", nil, str(" ~/x/ "), ConfigRoot{"/home/u/x", SourceFlag}, false},
		{"bare tilde", nil, str("~"), ConfigRoot{"/home/u", SourceFlag}, false},
		{"other user's tilde is a relative name", nil, str("~bob/x"), ConfigRoot{"/work/~bob/x", SourceFlag}, false},
		{"blank flag", nil, str(" "), ConfigRoot{}, true},
		{"empty flag", nil, str(""), ConfigRoot{}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testSystem(afero.NewMemMapFs(), "/work", append([]string{"HOME=/home/u"}, c.env...)...)
			got, err := s.ResolveRoot(c.flag)
			if c.wantErr {
				var ue *Error
				if !errors.As(err, &ue) || ue.Code() != CodeUsage {
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
	if _, err := s.ResolveRoot(nil); !errors.Is(err, ErrNoHome) {
		t.Fatalf("got %v", err)
	}
	if p := s.ActiveProfile(); p.Active {
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
			p := s.ActiveProfile()
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
