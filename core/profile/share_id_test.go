//go:build unix

package profile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// A profile folder that is the shared folder by identity, with no link on
// the way (a bind mount, sharesources_bind_linux_test.go), is a shared
// source. Without a mount the same identity is made by moving the shared
// folder into work's config after the guard located it: the walk then
// meets that very directory by another entry.
func TestSharedFolderByIdentityWithoutLink(t *testing.T) { sharedByIdentity(t) }

func sharedByIdentity(t *testing.T) {
	t.Helper()
	s, home := tempHome(t)
	shareOn(t, home, "personal")
	srcs := shareSources(s)
	shared := filepath.Join(home, ".claude/skills")
	skills := filepath.Join(home, ".agent-switch/claude/work/config/skills")
	os.MkdirAll(filepath.Dir(skills), 0o755)
	if err := os.Rename(shared, skills); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		filepath.Join(skills, "review/SKILL.md"): true,
		filepath.Join(skills, "new/SKILL.md"):    true,
		filepath.Join(skills, "../rules/x.md"):   false,
	} {
		tg, err := fsys.Walk(path, fsys.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var se *core.SharedWriteError
		err = sourceErrorIn(srcs, path, tg)
		tg.Close()
		if got := errors.As(err, &se); got != want {
			t.Fatalf("%s: %v, want a refusal %v", path, err, want)
		}
		if want && (!slices.Equal(se.Readers, []string{"personal"}) || se.SharedKind() != "dir" || se.SharedPath != shared) {
			t.Fatalf("%s: %+v", path, se)
		}
	}
}
