package commands

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/coretest"
)

// Issue 32: a profile's skills/ bind-mounted from the folder another
// profile's share link leads to is that folder, with no link on the way:
// a user-level apply in the profile exits 4 without --confirm-shared and
// writes nothing, as through a link; confirmed, the skill lands in the
// shared folder. Where mounting is not permitted a developer's run skips;
// CI instead applies in the profile whose own skills/ is the shared folder
// (no link on the way either), never skipping.
func TestApplyBindMountedSharedFolder(t *testing.T) {
	home := t.TempDir()
	profiles := filepath.Join(home, ".agent-switch", "claude")
	work := filepath.Join(profiles, "work", "config")
	personal := filepath.Join(profiles, "personal", "config")
	shared := filepath.Join(home, ".claude", "skills")
	for _, d := range []string{filepath.Join(work, "skills"), personal, shared, filepath.Join(home, ".agentkit/charter/skills/review")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(home, ".agentkit/charter/skills/review/SKILL.md"), []byte("---\nname: review\ndescription: Reviews a change\n---\nReview.\n"), 0o644)
	if err := syscall.Mount(shared, filepath.Join(work, "skills"), "", syscall.MS_BIND, ""); err != nil {
		if os.Getenv("CI") != "true" {
			t.Skipf("bind mount not permitted here (%v); core's TestSharedFolderByIdentityWithoutLink covers the identity", err)
		}
		t.Logf("bind mount not permitted (%v): work's own skills/ is the shared folder instead", err)
		shared = filepath.Join(work, "skills")
	} else {
		t.Cleanup(func() { syscall.Unmount(filepath.Join(work, "skills"), syscall.MNT_DETACH) })
	}
	if err := os.Symlink(shared, filepath.Join(personal, "skills")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(personal, ".agent-switch-shared.json"), []byte(`{"links":["skills"],"tool":"agent-switch"}`), 0o600)
	m := coretest.New(t, coretest.Home(home), coretest.Env("CLAUDE_CONFIG_DIR="+work))
	apply := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		args = append([]string{"apply"}, args...)
		code := Main(context.Background(), Build{Version: "t"}, args, strings.NewReader(""), &out, &errb, m.Environ(), afero.NewOsFs())
		return code, out.String(), errb.String()
	}
	code, stdout, stderr := apply()
	if code != 4 || !strings.Contains(stdout, "blocked") || !strings.Contains(stderr, shared+", a link agent-switch shares") {
		t.Fatalf("exit %d, want 4\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(shared, "review")); !os.IsNotExist(err) {
		t.Fatal("written into the shared folder without confirmation")
	}
	if code, _, stderr := apply("--confirm-shared"); code != 0 {
		t.Fatalf("confirmed: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(shared, "review", "SKILL.md")); err != nil {
		t.Fatalf("confirmed, the skill is not in the shared folder: %v", err)
	}
}
