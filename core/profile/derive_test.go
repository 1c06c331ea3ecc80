package profile

import (
	"testing"

	"github.com/spf13/afero"
)

// A derived System (Serving, WithConfigRoot) is a copy: the run's own
// System keeps its profile and root, so no skin changes it mid-run.
func TestDerivedSystemsLeaveTheOriginal(t *testing.T) {
	s := testSystem(afero.NewMemMapFs(), "/", "HOME=/home/u",
		"CLAUDE_CONFIG_DIR=/home/u/.agent-switch/claude/c/config",
		"CODEX_HOME=/home/u/.agent-switch/codex/x/config")
	before := Active(s).Name()
	codex := s.Serving("codex")
	if got := Active(codex).Name(); got != "codex/x" {
		t.Fatalf("serving codex chose %q, want codex/x", got)
	}
	if got := Active(s).Name(); got != before || got == "codex/x" {
		t.Fatalf("the original now chooses %q (was %q)", got, before)
	}
	flag := "/elsewhere/root"
	hosted := s.WithConfigRoot(&flag)
	if hosted.ConfigRootFlag() != &flag || s.ConfigRootFlag() != nil {
		t.Fatalf("root flag: derived %v, original %v", hosted.ConfigRootFlag(), s.ConfigRootFlag())
	}
	if hosted.Files == s.Files {
		t.Fatal("the derived System shares the original's guard")
	}
	if g, ok := hosted.Guard.(guard); !ok || g.s != hosted || g.ConfigRoot() != flag {
		t.Fatalf("the derived guard asks %v for root %q, want the copy and %s", g.s, g.ConfigRoot(), flag)
	}
}
