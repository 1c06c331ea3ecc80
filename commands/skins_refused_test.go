package commands

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentkit/charter/core/coretest"
)

// An apply refused at a shared link gives one report in the CLI (`apply
// --json`, exit 4) and the HTTP API (the 409's targets and files): the
// shared CLAUDE.md and the projected rule both `blocked`, the profile's
// own settings.json `outdated`, nothing written. Before the session owned
// apply, the HTTP API called the projected files `outdated`.
func TestRefusedApplySameInEverySkin(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	coretest.WriteFile(t, filepath.Join(root, "settings.yaml"), "gates:\n  tests:\n    required: false\n")
	coretest.WriteFile(t, filepath.Join(root, "rules", "tidy.md"), "---\ndescription: Keep it tidy\n---\nTidy up.\n")
	s := newSkins(t, root, coretest.Env("CLAUDE_CONFIG_DIR=$HOME/.agent-switch/claude/work/config"))
	home := s.base.Sys.Getenv("HOME")
	dir := filepath.Join(home, ".agent-switch", "claude", "work", "config")
	shared := filepath.Join(home, ".agent-switch", "shared")
	for _, d := range []string{dir, shared} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	coretest.WriteFile(t, filepath.Join(shared, "CLAUDE.md"), "# shared\n")
	if err := os.Symlink(filepath.Join(shared, "CLAUDE.md"), filepath.Join(dir, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	// The rules folder is shared too: the projected rule is behind a link.
	if err := os.MkdirAll(filepath.Join(shared, "rules"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(shared, "rules"), filepath.Join(dir, "rules")); err != nil {
		t.Fatal(err)
	}
	before := coretest.Tree(t, home)

	cli := s.cli("apply", "--agent", "claude")
	status, web := s.http("POST", "/api/v1/apply", `{"agents":["claude"]}`)
	if status != 409 {
		t.Fatalf("HTTP %d: %v", status, web)
	}
	refused, _ := web["error"].(map[string]any)
	if refused["code"] != "shared_write" {
		t.Fatalf("HTTP's error: %v", web)
	}
	states := map[string]string{}
	for _, k := range []string{"targets", "files"} {
		for _, r := range cli[k].([]any) {
			m := r.(map[string]any)
			states[filepath.Base(m["path"].(string))] = m["state"].(string)
		}
	}
	if states["CLAUDE.md"] != "blocked" || states["tidy.md"] != "blocked" || states["settings.json"] != "outdated" {
		t.Fatalf("the CLI's report is not the refusal set up (CLAUDE.md and the rule blocked): %v", cli)
	}
	sameDoc(t, "the 409's targets", refused["targets"], cli["targets"])
	sameDoc(t, "the 409's files", refused["files"], cli["files"])
	if after := coretest.Tree(t, home); after != before {
		t.Errorf("a refused apply wrote:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
