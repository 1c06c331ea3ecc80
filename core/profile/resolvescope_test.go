package profile_test

import (
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/profile"
)

func sys(wd string, env ...string) *core.System {
	return core.NewSystem(afero.NewMemMapFs(), env, time.Now, func() (string, error) { return wd, nil }, profile.Guard)
}

func TestScope(t *testing.T) {
	env := []string{"HOME=/home/u", "CLAUDE_CONFIG_DIR=/home/u/.agent-switch/claude/work/config"}
	s := sys("/", env...)
	sc, _ := profile.ResolveScope(s, nil)
	if sc.Kind != core.ScopeProfile || sc.Path != "/home/u/.agentkit/charter/profiles/claude/work" {
		t.Fatalf("profile scope %+v", sc)
	}
	root := "/home/u/.agent-switch/claude/work/config/charter"
	sc, _ = profile.ResolveScope(s, &root)
	if sc.Kind != core.ScopeHost || sc.Path != root || !sc.Profile.Active {
		t.Fatalf("host scope %+v", sc)
	}
	s = sys("/", "HOME=/home/u")
	sc, _ = profile.ResolveScope(s, nil)
	if sc.Kind != core.ScopeGlobal || sc.Path != "/home/u/.agentkit/charter" {
		t.Fatalf("global scope %+v", sc)
	}
}

func TestWindowsScope(t *testing.T) {
	s := sys(`C:\work`, `USERPROFILE=C:\Users\me`,
		`CLAUDE_CONFIG_DIR=C:/Users/me/.agent-switch/claude/work/config/`)
	s.Paths = fsys.PathStyle{Windows: true}
	sc, err := profile.ResolveScope(s, nil)
	if err != nil || sc.Path != `C:\Users\me\.agentkit\charter\profiles\claude\work` {
		t.Fatalf("scope %q %v", sc.Path, err)
	}
	rel := `cfg\root`
	sc, _ = profile.ResolveScope(s, &rel)
	if sc.Path != `C:\work\cfg\root` {
		t.Fatalf("relative root %q", sc.Path)
	}
}
