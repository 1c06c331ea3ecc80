package profile

import (
	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"

	"testing"

	"github.com/spf13/afero"
)

// Windows rules run on every platform through an injected fsys.PathStyle.

func windowsSystem(fs afero.Fs, environ ...string) *core.System {
	s := testSystem(fs, `C:\work`, environ...)
	s.Paths = fsys.PathStyle{Windows: true}
	return s
}

func TestWindowsProfile(t *testing.T) {
	s := windowsSystem(afero.NewMemMapFs(),
		`USERPROFILE=C:\Users\me`,
		`CLAUDE_CONFIG_DIR=C:/Users/me/.agent-switch/claude/work/config/`)
	p := Active(s)
	if !p.Active || *p.Provider != "claude" || *p.Profile != "work" {
		t.Fatalf("got %+v", p)
	}
}
