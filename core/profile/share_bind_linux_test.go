package profile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/agentkit/charter/core"
)

// Issue 32: work's skills/ bind-mounted from the folder personal's share
// link leads to is that folder (same device and inode, no link on the
// way): a write there is refused naming personal until confirmed, then
// lands in the shared folder. Where mounting is not permitted a
// developer's run skips; CI runs TestSharedFolderByIdentityWithoutLink's
// checks instead, never skipping.
func TestSharedFolderBindMount(t *testing.T) {
	s, home := tempHome(t)
	shareOn(t, home, "personal")
	shared := filepath.Join(home, ".claude/skills")
	config := filepath.Join(home, ".agent-switch/claude/work/config")
	skills := filepath.Join(config, "skills")
	os.MkdirAll(skills, 0o755)
	if err := syscall.Mount(shared, skills, "", syscall.MS_BIND, ""); err != nil {
		if os.Getenv("CI") != "true" {
			t.Skipf("bind mount not permitted here (%v): TestSharedFolderByIdentityWithoutLink covers the identity", err)
		}
		t.Logf("bind mount not permitted (%v): the identity is checked without one", err)
		sharedByIdentity(t)
		return
	}
	t.Cleanup(func() { syscall.Unmount(skills, syscall.MNT_DETACH) })
	target := filepath.Join(skills, "review/SKILL.md")
	var se *core.SharedWriteError
	err := write(s, target, "new", false)
	if !errors.As(err, &se) || !slices.Equal(se.Readers, []string{"personal"}) || se.SharedKind() != "dir" || se.SharedPath != shared {
		t.Fatalf("got %v, want a shared-source refusal naming personal", err)
	}
	if _, err := os.Stat(filepath.Join(shared, "review/SKILL.md")); !os.IsNotExist(err) {
		t.Fatal("written into the shared folder without confirmation")
	}
	if err := write(s, filepath.Join(skills, "new/SKILL.md"), "x", false); !errors.As(err, &se) {
		t.Fatalf("a new folder in the bind mount: %v", err)
	}
	if err := write(s, filepath.Join(config, "rules/x.md"), "x", false); err != nil {
		t.Fatalf("work's own folder: %v", err)
	}
	if err := write(s, target, "new", true); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(shared, "review/SKILL.md")); got != "new" {
		t.Fatalf("shared file %q", got)
	}
	assertLink(t, filepath.Join(home, ".agent-switch/claude/personal/config/skills"), shared)
}
