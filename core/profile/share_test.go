//go:build unix

package profile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentkit/charter/core"
)

// shareOn lays out what `agent-switch share on` makes (src/share.ts):
// absolute links from each profile's config to ~/.claude and the manifest.
func shareOn(t *testing.T, home string, profiles ...string) {
	t.Helper()
	src := filepath.Join(home, ".claude")
	os.MkdirAll(filepath.Join(src, "skills/review"), 0o755)
	os.WriteFile(filepath.Join(src, "CLAUDE.md"), []byte("shared\n"), 0o644)
	for _, p := range profiles {
		config := filepath.Join(home, ".agent-switch/claude", p, "config")
		os.MkdirAll(config, 0o755)
		for _, n := range []string{"CLAUDE.md", "skills"} {
			if err := os.Symlink(filepath.Join(src, n), filepath.Join(config, n)); err != nil {
				t.Fatal(err)
			}
		}
		os.WriteFile(filepath.Join(config, core.CompanionShareManifest), []byte(`{"links":["CLAUDE.md","skills"],"tool":"agent-switch"}`), 0o600)
	}
}

// A write inside a shared folder, spelled through an alias of the home,
// is refused naming the readers; confirmed it is written, the links kept.
func TestSharedSourceFolderByIdentity(t *testing.T) {
	s, home := tempHome(t)
	shareOn(t, home, "personal", "work")
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(home, alias); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(alias, ".claude/skills/review/SKILL.md")
	err := write(s, target, "new", false)
	var se *core.SharedWriteError
	if !errors.As(err, &se) || !slices.Equal(se.Readers, []string{"personal", "work"}) || se.SharedKind() != "dir" {
		t.Fatalf("got %v, want a shared-source refusal naming personal and work", err)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude/skills/review/SKILL.md")); !os.IsNotExist(err) {
		t.Fatal("written without confirmation")
	}
	// A new folder below the shared one is inside it too.
	if err := write(s, filepath.Join(home, ".claude/skills/new/SKILL.md"), "x", false); !errors.As(err, &se) {
		t.Fatalf("new folder in a shared one: %v", err)
	}
	if err := write(s, target, "new", true); err != nil {
		t.Fatal(err)
	}
	assertLink(t, filepath.Join(home, ".agent-switch/claude/work/config/skills"), filepath.Join(home, ".claude/skills"))
	// A sibling of the shared files is no one's source.
	if err := write(s, filepath.Join(home, ".claude/other.md"), "x", false); err != nil {
		t.Fatal(err)
	}
	// A link forked into the profile's own file (no longer a link) shares nothing.
	os.Remove(filepath.Join(home, ".agent-switch/claude/work/config/CLAUDE.md"))
	os.WriteFile(filepath.Join(home, ".agent-switch/claude/work/config/CLAUDE.md"), []byte("own"), 0o644)
	err = write(s, filepath.Join(home, ".claude/CLAUDE.md"), "x", false)
	if !errors.As(err, &se) || !slices.Equal(se.Readers, []string{"personal"}) || se.SharedKind() != "file" {
		t.Fatalf("got %v, want personal alone", err)
	}
}
