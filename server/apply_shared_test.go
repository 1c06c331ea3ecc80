package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/apply"
)

// CLAUDE.md of the active profile links to a file shared between profiles:
// 409 until confirmed, and nothing written before (the whole change set is
// decided first, as the CLI's); then written through the link.
func TestApplySharedLink(t *testing.T) {
	e := newEnv(t, "CLAUDE_CONFIG_DIR=$HOME/.agent-switch/claude/work/config")
	dir := filepath.Join(e.home, ".agent-switch", "claude", "work", "config")
	shared := filepath.Join(e.home, ".agent-switch", "shared", "CLAUDE.md")
	for _, d := range []string{dir, filepath.Dir(shared)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(shared, []byte("# shared\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "CLAUDE.md")
	if err := os.Symlink("../../../shared/CLAUDE.md", link); err != nil {
		t.Skip("no symlinks:", err)
	}
	r := e.start(t, 0)

	rp := r.do("POST", "api/v1/apply", `{"agents":["claude","codex"]}`)
	if rp.status != 409 {
		t.Fatalf("%d %s", rp.status, rp.body)
	}
	checkSharedBody(t, rp, link)
	var doc struct {
		Error struct{ Targets []apply.Result }
	}
	json.Unmarshal(rp.body, &doc)
	// Codex's files live outside the Claude profile: skipped, with the
	// reason, and nothing of Codex's is written into the profile.
	if ts := doc.Error.Targets; len(ts) != 3 || ts[0].State != apply.StateBlocked || ts[0].SharedPath != link || ts[1].State != apply.StateOutdated ||
		ts[1].Path != filepath.Join(dir, apply.HookFile) || ts[2].Agent != "codex" || ts[2].State != apply.StateSkipped || ts[2].Reason == "" {
		t.Errorf("targets in the 409: %s", rp.body)
	}
	for _, f := range []string{apply.HookFile, "AGENTS.md", apply.CodexHookFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was written before the shared link was confirmed", f)
		}
	}
	if data, _ := os.ReadFile(shared); string(data) != "# shared\n" {
		t.Error("the shared file was written without confirmation")
	}

	rp = r.do("POST", "api/v1/apply", `{"agents":["claude"],"confirmSharedWrite":true}`)
	if got := applyTargets(t, rp); rp.status != 200 || len(got) != 1 || got[0].State != apply.StateWritten || got[0].SharedPath != link {
		t.Fatalf("confirmed: %d %s", rp.status, rp.body)
	}
	if dest, err := os.Readlink(link); err != nil || dest != "../../../shared/CLAUDE.md" {
		t.Errorf("link now %q, %v", dest, err)
	}
	if data, _ := os.ReadFile(shared); !strings.HasPrefix(string(data), "# shared\n\n"+apply.BeginMarker+"\n") {
		t.Errorf("shared file:\n%s", data)
	}
}
