package profile

import (
	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"

	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// tempHome builds a real home with a companion tree, for links and modes.
func tempHome(t *testing.T) (*core.System, string) {
	t.Helper()
	home := t.TempDir()
	for _, d := range []string{".agent-switch/claude/work", ".agent-switch/shared"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return testSystem(afero.NewOsFs(), home, "HOME="+home), home
}

func write(s *core.System, path, data string, confirm bool) error {
	return s.UpdateFile(path, confirm, func([]byte) ([]byte, error) { return []byte(data), nil })
}

func TestSharedLinkTargetIsLink(t *testing.T) {
	s, home := tempHome(t)
	shared := filepath.Join(home, ".agent-switch/shared/CLAUDE.md")
	os.WriteFile(shared, []byte("old"), 0o644)
	link := filepath.Join(home, ".agent-switch/claude/work/CLAUDE.md")
	os.Symlink("../../shared/CLAUDE.md", link)

	err := write(s, link, "new", false)
	var se *core.SharedWriteError
	if !errors.As(err, &se) || se.SharedPath != link || se.Target != link {
		t.Fatalf("want shared write error at %s, got %v", link, err)
	}
	if got, _ := os.ReadFile(shared); string(got) != "old" {
		t.Fatalf("blocked write changed the file: %q", got)
	}
	if err := write(s, link, "new", true); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(shared); string(got) != "new" {
		t.Fatalf("confirmed write did not land at the real file: %q", got)
	}
	if dest, err := os.Readlink(link); err != nil || dest != "../../shared/CLAUDE.md" {
		t.Fatalf("link changed: %q %v", dest, err)
	}
}

func TestSharedLinkAncestorAndDangling(t *testing.T) {
	s, home := tempHome(t)
	os.Symlink("../../shared", filepath.Join(home, ".agent-switch/claude/work/config"))
	target := filepath.Join(home, ".agent-switch/claude/work/config/charter/settings.yaml")
	link, err := s.SharedLink(target)
	if err != nil || link != filepath.Join(home, ".agent-switch/claude/work/config") {
		t.Fatalf("link %q %v", link, err)
	}
	if err := write(s, target, "x", true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, ".agent-switch/shared/charter/settings.yaml")); err != nil {
		t.Fatal(err)
	}
	// A link whose target does not exist yet: the write creates the target.
	dangling := filepath.Join(home, ".agent-switch/claude/work/AGENTS.md")
	os.Symlink("../../shared/AGENTS.md", dangling)
	if err := write(s, dangling, "y", true); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(home, ".agent-switch/shared/AGENTS.md")); string(got) != "y" {
		t.Fatalf("dangling target %q", got)
	}
	if fi, _ := os.Lstat(dangling); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("link replaced")
	}
}

func TestSharedLinkIgnoresOutsideAndAbove(t *testing.T) {
	s, home := tempHome(t)
	if link, _ := s.SharedLink(filepath.Join(home, "elsewhere/x")); link != "" {
		t.Fatalf("outside the companion home: %q", link)
	}
	// The companion home reached through a link above it.
	real := t.TempDir()
	os.MkdirAll(filepath.Join(real, ".agent-switch/a/b"), 0o755)
	alias := filepath.Join(t.TempDir(), "alias")
	os.Symlink(real, alias)
	s2 := testSystem(afero.NewOsFs(), "/", "HOME="+home, "AGENT_SWITCH_HOME="+filepath.Join(alias, ".agent-switch"))
	if link, _ := s2.SharedLink(filepath.Join(alias, ".agent-switch/a/b/f")); link != "" {
		t.Fatalf("link above the home counted: %q", link)
	}
	// The companion home itself a link: that link is the way into the tree,
	// not a link inside it (the tree is what the directories are on disk).
	// A link inside the tree is still found, spelled through the home link.
	s3 := testSystem(afero.NewOsFs(), "/", "HOME="+home, "AGENT_SWITCH_HOME="+alias)
	if link, _ := s3.SharedLink(filepath.Join(alias, "a/b/f")); link != "" {
		t.Fatalf("home link %q", link)
	}
	os.MkdirAll(filepath.Join(real, "a/b"), 0o755)
	os.Symlink("../a", filepath.Join(real, "a/b/up"))
	if link, _ := s3.SharedLink(filepath.Join(alias, "a/b/up/f")); link != filepath.Join(alias, "a/b/up") {
		t.Fatalf("link inside, through the home link: %q", link)
	}
}

// A write interrupted after the temp file is written and before the rename
// leaves the old file intact, and the stray temp file is not the file.
func TestCrashBeforeRename(t *testing.T) {
	s, home := tempHome(t)
	path := filepath.Join(home, ".agentkit/charter/settings.yaml")
	if err := write(s, path, "old: 1\n", false); err != nil {
		t.Fatal(err)
	}
	type crash struct{}
	var tmp string
	s.BeforeRename = func(p string) { tmp = p; panic(crash{}) }
	func() {
		defer func() {
			if _, ok := recover().(crash); !ok {
				t.Fatal("write did not reach the rename")
			}
		}()
		write(s, path, "new: 2\n", false)
	}()
	s.BeforeRename = nil
	if got, _ := os.ReadFile(path); string(got) != "old: 1\n" {
		t.Fatalf("old file damaged: %q", got)
	}
	if got, err := os.ReadFile(tmp); err != nil || string(got) != "new: 2\n" || !strings.HasPrefix(filepath.Base(tmp), ".charter-tmp-settings.yaml-") {
		t.Fatalf("temp file %s: %q %v", tmp, got, err)
	}
	// The next write still works and is not confused by the stray file.
	if err := write(s, path, "next: 3\n", false); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "next: 3\n" {
		t.Fatalf("after crash: %q", got)
	}
}

func TestWriteModes(t *testing.T) {
	s, home := tempHome(t)
	path := filepath.Join(home, ".agentkit/charter/deep/f")
	if err := write(s, path, "x", false); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{path: fsys.FileMode, filepath.Dir(path): fsys.DirMode, filepath.Join(home, ".agentkit"): fsys.DirMode} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v, %v", p, fi.Mode().Perm(), err)
		}
	}
}

func TestWriteKeepsModeAndLocksElsewhere(t *testing.T) {
	s, home := tempHome(t)
	path := filepath.Join(home, ".claude/CLAUDE.md")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("mine"), 0o644)
	os.MkdirAll(filepath.Join(home, ".agentkit/charter"), 0o700)
	if err := write(s, path, "ours", false); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode changed to %v", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the agent's directory collected files: %v", entries)
	}
	// One lock file per key (path, and directory identity), striped.
	locks, _ := os.ReadDir(filepath.Join(home, ".agentkit/charter/locks"))
	if len(locks) < 1 || len(locks) > 2 {
		t.Errorf("locks: %v", locks)
	}
}

func TestUpdateNilWritesNothing(t *testing.T) {
	fs := afero.NewMemMapFs()
	s := testSystem(fs, "/", "HOME=/h")
	if err := s.UpdateFile("/h/f", false, func([]byte) ([]byte, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	if ok, _ := afero.Exists(fs, "/h/f"); ok {
		t.Fatal("file created")
	}
}

// writeDismissals writes the user-global dismissals file as core/dismiss
// does: one of charter's own files, outside a host root.
func writeDismissals(s *core.System) error {
	root, err := DefaultRoot(s)
	if err != nil {
		return err
	}
	return s.UpdateFileOpts(s.Paths.Join(root, "dismissals.json"), fsys.WriteOptions{Owned: true}, func([]byte) ([]byte, error) {
		return []byte(`{"dismissed": ["agent-switch"]}` + "\n"), nil
	})
}
