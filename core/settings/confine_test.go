package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentkit/charter/core"
)

// The project's settings files are the repository's: a committed link out
// of the project is refused for the store's writes (settings set --local,
// --project, and the HTTP API's PATCH with layer project or projectLocal)
// and reads alike; a link that stays inside is followed.
func TestProjectLayersConfined(t *testing.T) {
	st, project, dir := layeredStore(t, "")
	outside := filepath.Join(dir, "outside.yaml")
	os.WriteFile(outside, []byte("rules:\n  tier: full\n"), 0o644)
	if err := os.Symlink("../../outside.yaml", project.LocalPath()); err != nil {
		t.Fatal(err)
	}
	local, err := st.Target(LayerProjectLocal)
	if err != nil {
		t.Fatal(err)
	}
	_, err = local.Write(Update{Set: map[string]any{"worktrees.mode": "off"}})
	if core.ErrorCode(err) != core.CodeOutsideProject || !strings.Contains(err.Error(), project.LocalPath()+" is a link that leads out of the project") {
		t.Fatalf("write through a link out: %v", err)
	}
	if _, err := st.Read(); core.ErrorCode(err) != core.CodeOutsideProject {
		t.Fatalf("read through a link out: %v", err)
	}
	if data, _ := os.ReadFile(outside); string(data) != "rules:\n  tier: full\n" {
		t.Fatalf("outside file changed: %q", data)
	}
	if _, err := os.Stat(filepath.Join(project.Dir, ".charter", ".gitignore")); !os.IsNotExist(err) {
		t.Errorf(".gitignore written after a refusal: %v", err)
	}

	// Inside the project, the link is followed and kept.
	os.Remove(project.LocalPath())
	os.Symlink("mine.yaml", project.LocalPath())
	if _, err := local.Write(Update{Set: map[string]any{"worktrees.mode": "off"}}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(project.Dir, ".charter", "mine.yaml")); !strings.Contains(string(data), `mode: "off"`) {
		t.Errorf("link target %q", data)
	}
	if text, err := os.Readlink(project.LocalPath()); err != nil || text != "mine.yaml" {
		t.Errorf("link %q %v", text, err)
	}
	// The project file itself, absolute and out.
	os.Symlink(outside, project.SettingsPath())
	shared, _ := st.Target(LayerProject)
	if _, err := shared.Write(Update{Set: map[string]any{"rules.tier": "minimal"}}); core.ErrorCode(err) != core.CodeOutsideProject {
		t.Fatalf("project layer through a link out: %v", err)
	}
}
