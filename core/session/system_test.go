//go:build unix

package session_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/session"
)

// Every System charter builds, and every copy of one, refuses a write
// through a companion share link and into the source the links share
// (GUARD.md): the guard comes with the constructor, not with the caller.
func TestEveryConstructorGuards(t *testing.T) {
	home := t.TempDir()
	src := filepath.Join(home, ".claude", "CLAUDE.md")
	config := filepath.Join(home, ".agent-switch", "claude", "work", "config")
	link := filepath.Join(config, "CLAUDE.md")
	for _, d := range []string{filepath.Dir(src), config} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(src, []byte("shared\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(src, link); err != nil {
		t.Fatal(err)
	}
	manifest := `{"links":["CLAUDE.md"],"tool":"agent-switch"}`
	if err := os.WriteFile(filepath.Join(config, core.CompanionShareManifest), []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home}
	wd := func() (string, error) { return home, nil }
	root := filepath.Join(t.TempDir(), "root")
	m := coretest.New(t, coretest.Home(home))
	built := map[string]*core.System{
		"session.NewSystem":             session.NewSystem(afero.NewOsFs(), env, time.Now, wd),
		"core.NewSystem(profile.Guard)": core.NewSystem(afero.NewOsFs(), env, time.Now, wd, profile.Guard),
		"coretest.New":                  m.Sys,
		"coretest.Another":              m.Another(),
	}
	base := session.NewSystem(afero.NewOsFs(), env, time.Now, wd)
	built["WithConfigRoot"] = base.WithConfigRoot(&root)
	built["Serving"] = base.Serving("codex")
	built["Serving.WithConfigRoot"] = base.Serving("claude").WithConfigRoot(nil)
	for name, s := range built {
		for _, target := range []string{link, src} {
			err := s.UpdateFile(target, false, func([]byte) ([]byte, error) { return []byte("changed\n"), nil })
			var se *core.SharedWriteError
			if !errors.As(err, &se) {
				t.Errorf("%s: a write to %s got %v, want the shared-write refusal", name, target, err)
			}
		}
	}
	// A read-only copy refuses too: it writes nothing at all.
	if err := base.ReadOnly("a dry run").UpdateFile(link, true, func([]byte) ([]byte, error) { return []byte("changed\n"), nil }); err == nil {
		t.Error("ReadOnly: a confirmed write through the link went through")
	}
	if got, _ := os.ReadFile(src); string(got) != "shared\n" {
		t.Fatalf("the shared file changed: %q", got)
	}
}

// A System cannot be built without a guard: the mistake shows at once,
// not as an unguarded write later.
func TestNewSystemNeedsAGuard(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("core.NewSystem without a guard built a System")
		}
	}()
	core.NewSystem(afero.NewMemMapFs(), nil, time.Now, os.Getwd, nil)
}
