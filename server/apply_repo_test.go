//go:build unix

package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/coretest"
)

// The hub's "Apply to this project" is held to the same rules as the CLI
// (SPEC §12 decisions of 2026-11-27): a cloned repository's link from a
// projected skill file into .git, or a committed record claiming .git/HEAD,
// never reaches the git folder. The repository, its .git and the home are
// compared before and after.
func TestApplyProjectNeverReachesGit(t *testing.T) {
	e := newEnv(t)
	repo := filepath.Join(e.dir, "repo")
	coretest.WriteFile(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/master\n")
	coretest.WriteFile(t, filepath.Join(repo, ".git", "config"), "[core]\n\tbare = false\n")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "settings.yaml"), "")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "skills", "x", "SKILL.md"), "---\nname: x\ndescription: ships a script\n---\nRun run.sh.\n")
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "skills", "x", "run.sh"), "#!/bin/sh\necho pwned\n")
	if err := os.Chmod(filepath.Join(repo, ".charter", "skills", "x", "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, ".claude", "skills", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../../.git/hooks/pre-commit", filepath.Join(repo, ".claude", "skills", "x", "run.sh")); err != nil {
		t.Fatal(err)
	}
	r, _ := e.startProject(t, repo)
	before, home := coretest.Tree(t, repo), coretest.Tree(t, e.home)
	for _, body := range []string{`{"project":true}`, `{"project":true,"agents":["claude"]}`} {
		rp := r.do("POST", "api/v1/apply", body)
		var doc struct {
			Error struct{ Code, Message string }
		}
		json.Unmarshal(rp.body, &doc)
		if rp.status != 409 || doc.Error.Code != core.CodeGitDir || !strings.Contains(doc.Error.Message, filepath.Join(".claude", "skills", "x", "run.sh")) {
			t.Fatalf("%s: %d %s", body, rp.status, rp.body)
		}
	}
	if got := coretest.Tree(t, repo); got != before {
		t.Fatalf("the repository changed:\n%s\nwas\n%s", got, before)
	}
	if got := coretest.Tree(t, e.home); got != home {
		t.Fatalf("the home changed:\n%s\nwas\n%s", got, home)
	}

	// The record's claim on .git/HEAD is ignored: the apply goes on, HEAD stays.
	os.Remove(filepath.Join(repo, ".claude", "skills", "x", "run.sh"))
	coretest.WriteFile(t, filepath.Join(repo, ".charter", "projection.lock"), `{"version":1,"files":[
  {"path":".git/HEAD","sha256":"f6f2b945f6c411b02ba3da9c7ace88dcf71b6af65ba2e0d89aa82900042b5a10","kind":"rule","item":"a","agent":"claude"}
]}
`)
	git := coretest.Tree(t, filepath.Join(repo, ".git"))
	rp := r.do("POST", "api/v1/apply", `{"project":true}`)
	var doc struct {
		Ignored []struct{ Path string }
	}
	if err := json.Unmarshal(rp.body, &doc); err != nil || rp.status != 200 || len(doc.Ignored) != 1 || doc.Ignored[0].Path != ".git/HEAD" {
		t.Fatalf("record with .git/HEAD: %d %s", rp.status, rp.body)
	}
	if got := coretest.Tree(t, filepath.Join(repo, ".git")); got != git {
		t.Fatalf(".git changed:\n%s\nwas\n%s", got, git)
	}
	if lock, _ := os.ReadFile(filepath.Join(repo, ".charter", "projection.lock")); strings.Contains(string(lock), ".git/HEAD") {
		t.Fatalf("the ignored entry stayed in the record:\n%s", lock)
	}
}
