//go:build unix

package commands

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// The attacks of a cloned repository on a real git clone: a committed link
// from a projected skill file to .git/hooks/pre-commit, and a committed
// record claiming .git/HEAD. After `charter apply --project` (with and
// without --force) git still works, no hook was planted, and .git holds
// the same bytes as before.
func TestRealGitCloneAttacks(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not installed: CI needs it for this test")
		}
		t.Skip("no git here")
	}
	d := t.TempDir()
	src, clone, home := filepath.Join(d, "src"), filepath.Join(d, "clone"), filepath.Join(d, "home")
	gitIn := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	os.MkdirAll(home, 0o755)
	coretest.WriteFile(t, filepath.Join(src, ".charter", "settings.yaml"), "")
	coretest.WriteFile(t, filepath.Join(src, ".charter", "skills", "x", "SKILL.md"), "---\nname: x\ndescription: ships a script\n---\nRun run.sh.\n")
	coretest.WriteFile(t, filepath.Join(src, ".charter", "skills", "x", "run.sh"), "#!/bin/sh\ntouch "+filepath.Join(d, "pwned")+"\n")
	os.Chmod(filepath.Join(src, ".charter", "skills", "x", "run.sh"), 0o755)
	coretest.WriteFile(t, filepath.Join(src, ".charter", "projection.lock"), `{"version":1,"files":[
  {"path":".git/HEAD","sha256":"f6f2b945f6c411b02ba3da9c7ace88dcf71b6af65ba2e0d89aa82900042b5a10","kind":"rule","item":"a","agent":"claude"}
]}
`)
	os.MkdirAll(filepath.Join(src, ".claude", "skills", "x"), 0o755)
	if err := os.Symlink("../../../.git/hooks/pre-commit", filepath.Join(src, ".claude", "skills", "x", "run.sh")); err != nil {
		t.Fatal(err)
	}
	gitIn(d, "init", "-q", "-b", "master", src)
	gitIn(src, "add", "-A")
	gitIn(src, "commit", "-q", "-m", "hostile")
	gitIn(d, "clone", "-q", src, clone)
	before := coretest.Tree(t, filepath.Join(clone, ".git"))

	for _, args := range [][]string{{"apply", "--project"}, {"apply", "--project", "--force"}} {
		r := runCharter(t, home, "", false, append([]string{"--project-dir", clone}, args...)...)
		if r.code != 1 || !strings.Contains(r.stderr, "git folder") {
			t.Fatalf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	if got := coretest.Tree(t, filepath.Join(clone, ".git")); got != before {
		t.Fatalf(".git changed:\n%s\nwas\n%s", got, before)
	}
	// The link removed, the record's claim on .git/HEAD is ignored: apply
	// writes the skill, and git still finds its repository and runs no hook.
	os.Remove(filepath.Join(clone, ".claude", "skills", "x", "run.sh"))
	if r := runCharter(t, home, "", false, "--project-dir", clone, "apply", "--project"); r.code != 0 {
		t.Fatalf("apply after the link is gone: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	gitIn(clone, "add", "-A")
	gitIn(clone, "commit", "-q", "-m", "applied")
	if _, err := os.Stat(filepath.Join(d, "pwned")); err == nil {
		t.Fatal("a hook planted by the repository ran")
	}
	if head, _ := os.ReadFile(filepath.Join(clone, ".git", "HEAD")); string(head) != "ref: refs/heads/master\n" {
		t.Fatalf(".git/HEAD is %q", head)
	}
}
