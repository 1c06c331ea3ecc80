//go:build unix

package profile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// companionHome is tempHome with a profile whose config is a link into
// the shared directory, as agent-switch makes it.
func companionHome(t *testing.T) (home string) {
	t.Helper()
	_, home = tempHome(t)
	os.WriteFile(filepath.Join(home, ".agent-switch/shared/CLAUDE.md"), []byte("shared original\n"), 0o644)
	if err := os.Symlink("../../shared", filepath.Join(home, ".agent-switch/claude/work/config")); err != nil {
		t.Fatal(err)
	}
	return home
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func assertLink(t *testing.T, path, text string) {
	t.Helper()
	if got, err := os.Readlink(path); err != nil || got != text {
		t.Fatalf("%s: link %q %v, want %q", path, got, err, text)
	}
}

func noTempFiles(t *testing.T, roots ...string) {
	t.Helper()
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if _, ok := fsys.TempOf(d.Name()); err == nil && ok {
				t.Errorf("temporary file left: %s", p)
			}
			return nil
		})
	}
}

// Issue 11, item 1: alias spellings of the home do not get past the guard.
func TestGuardAliasSpellings(t *testing.T) {
	home := companionHome(t)
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(home, alias); err != nil { // ln -s $HOME /tmp/alias
		t.Fatal(err)
	}
	shared := filepath.Join(home, ".agent-switch/shared/CLAUDE.md")
	cases := []struct {
		name   string
		env    []string
		target string
	}{
		{"CLAUDE_CONFIG_DIR through an alias of HOME", []string{"HOME=" + home}, filepath.Join(alias, ".agent-switch/claude/work/config/CLAUDE.md")},
		{"HOME itself the alias, target by the real path", []string{"HOME=" + alias}, filepath.Join(home, ".agent-switch/claude/work/config/CLAUDE.md")},
		{"HOME itself the alias, target through it", []string{"HOME=" + alias}, filepath.Join(alias, ".agent-switch/claude/work/config/CLAUDE.md")},
		{"AGENT_SWITCH_HOME through the alias, target by the real path", []string{"HOME=" + home, "AGENT_SWITCH_HOME=" + filepath.Join(alias, ".agent-switch")}, filepath.Join(home, ".agent-switch/claude/work/config/CLAUDE.md")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testSystem(afero.NewOsFs(), "/", c.env...)
			err := write(s, c.target, "profile block\n", false)
			var se *core.SharedWriteError
			if !errors.As(err, &se) || se.Target != c.target || se.SharedPath != filepath.Dir(c.target) {
				t.Fatalf("want a shared write error at %s, got %v", filepath.Dir(c.target), err)
			}
			if link, err := s.SharedLink(c.target); err != nil || link != filepath.Dir(c.target) {
				t.Fatalf("SharedLink %q %v", link, err)
			}
			if got := readFile(t, shared); got != "shared original\n" {
				t.Fatalf("the shared file changed: %q", got)
			}
		})
	}
	noTempFiles(t, home)
}

// Issue 11, item 1: a host root reached through an alias, its
// settings.yaml a link into the shared directory: blocked, and confirmed
// written through with the link kept.
func TestGuardHostRootThroughAlias(t *testing.T) {
	home := companionHome(t)
	os.WriteFile(filepath.Join(home, ".agent-switch/shared/settings.yaml"), []byte("# shared\n"), 0o600)
	root := filepath.Join(home, ".agent-switch/claude/work/charter")
	os.MkdirAll(root, 0o755)
	os.Symlink("../../../shared/settings.yaml", filepath.Join(root, "settings.yaml"))
	alias := filepath.Join(t.TempDir(), "alias")
	os.Symlink(home, alias)
	hostRoot := filepath.Join(alias, ".agent-switch/claude/work/charter")
	s := testSystem(afero.NewOsFs(), "/", "HOME="+home, core.ConfigHomeVar+"="+hostRoot)
	target := filepath.Join(hostRoot, "settings.yaml")
	own := fsys.WriteOptions{Owned: true}
	err := s.UpdateFileOpts(target, own, func([]byte) ([]byte, error) { return []byte("rules: x\n"), nil })
	var se *core.SharedWriteError
	if !errors.As(err, &se) || se.SharedPath != target {
		t.Fatalf("want blocked at %s, got %v", target, err)
	}
	assertLink(t, filepath.Join(root, "settings.yaml"), "../../../shared/settings.yaml")
	own.ConfirmShared = true
	err = s.UpdateFileOpts(target, own, func(old []byte) ([]byte, error) { return append(old, "rules: x\n"...), nil })
	if err != nil {
		t.Fatal(err)
	}
	assertLink(t, filepath.Join(root, "settings.yaml"), "../../../shared/settings.yaml")
	if got := readFile(t, filepath.Join(home, ".agent-switch/shared/settings.yaml")); got != "# shared\nrules: x\n" {
		t.Fatalf("shared settings %q", got)
	}
	noTempFiles(t, home)
}

// Issue 11, item 3: links outside the tree are written through and kept.
func TestGuardOutsideLinks(t *testing.T) {
	home := companionHome(t)
	s := testSystem(afero.NewOsFs(), "/", "HOME="+home)
	dot := filepath.Join(home, "dotfiles")
	os.MkdirAll(filepath.Join(dot, "claude"), 0o755)
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	os.WriteFile(filepath.Join(dot, "claude/CLAUDE.md"), []byte("# mine\n"), 0o644)
	os.Symlink("../dotfiles/claude/CLAUDE.md", filepath.Join(home, ".claude/CLAUDE.md"))
	err := s.UpdateFileOpts(filepath.Join(home, ".claude/CLAUDE.md"), fsys.WriteOptions{NewMode: 0o644}, func(old []byte) ([]byte, error) {
		return append(old, "block\n"...), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	assertLink(t, filepath.Join(home, ".claude/CLAUDE.md"), "../dotfiles/claude/CLAUDE.md")
	if got := readFile(t, filepath.Join(dot, "claude/CLAUDE.md")); got != "# mine\nblock\n" {
		t.Fatalf("dotfiles copy %q", got)
	}
	if fi, _ := os.Stat(filepath.Join(dot, "claude/CLAUDE.md")); fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	// The default root itself linked into a dotfiles repository.
	os.MkdirAll(filepath.Join(dot, "agentkit/charter"), 0o700)
	os.Symlink("dotfiles/agentkit", filepath.Join(home, ".agentkit"))
	settings := filepath.Join(home, ".agentkit/charter/settings.yaml")
	if err := s.UpdateFileOpts(settings, fsys.WriteOptions{Owned: true}, func([]byte) ([]byte, error) { return []byte("a: 1\n"), nil }); err != nil {
		t.Fatal(err)
	}
	assertLink(t, filepath.Join(home, ".agentkit"), "dotfiles/agentkit")
	if got := readFile(t, filepath.Join(dot, "agentkit/charter/settings.yaml")); got != "a: 1\n" {
		t.Fatalf("settings %q", got)
	}
	noTempFiles(t, home)
}

// Issue 12 "Modes" and issue 11 item 7: charter's own files are 0600 after
// every write; a user's file keeps its mode.
func TestOwnFilesNarrowedUserFilesKept(t *testing.T) {
	s, home := tempHome(t)
	root := filepath.Join(home, ".agentkit/charter")
	os.MkdirAll(root, 0o700)
	token := filepath.Join(root, "local-server.token")
	disc := filepath.Join(root, "local-server.json")
	settings := filepath.Join(root, "settings.yaml")
	dismissals := filepath.Join(root, "dismissals.json")
	claude := filepath.Join(home, ".claude/CLAUDE.md")
	os.MkdirAll(filepath.Dir(claude), 0o755)
	for _, p := range []string{token, disc, settings, dismissals, claude} {
		os.WriteFile(p, []byte("{}\n"), 0o644)
		os.Chmod(p, 0o644)
	}
	if err := s.WriteAtomic(token, []byte("secret\n")); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteAtomic(disc, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateFileOpts(settings, fsys.WriteOptions{Owned: true}, func([]byte) ([]byte, error) { return []byte("a: 1\n"), nil }); err != nil {
		t.Fatal(err)
	}
	if err := writeDismissals(s); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateFileOpts(claude, fsys.WriteOptions{NewMode: 0o644}, func([]byte) ([]byte, error) { return []byte("b\n"), nil }); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]fs.FileMode{token: 0o600, disc: 0o600, settings: 0o600, dismissals: 0o600, claude: 0o644} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %v", filepath.Base(p), fi.Mode().Perm(), err, want)
		}
	}
	// A new user file gets NewMode (less the umask), its new directories 0755.
	fresh := filepath.Join(home, "project/.charter/settings.yaml")
	if err := s.UpdateFileOpts(fresh, fsys.WriteOptions{NewMode: 0o644}, func([]byte) ([]byte, error) { return []byte("c\n"), nil }); err != nil {
		t.Fatal(err)
	}
	umask := currentUmask()
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o644&^umask {
		t.Errorf("new project file %v", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(filepath.Dir(fresh)); fi.Mode().Perm() != 0o755&^umask {
		t.Errorf("new project directory %v", fi.Mode().Perm())
	}
}

// Issue 11, item 8: a read-only file is refused, untouched; stale
// temporary files of charter's own pattern are removed under the lock.
func TestReadOnlyAndStaleTemps(t *testing.T) {
	s, home := tempHome(t)
	dir := filepath.Join(home, ".agentkit/charter")
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, "settings.yaml")
	os.WriteFile(path, []byte("rules:\n  tier: full\n"), 0o444)
	os.Chmod(path, 0o444)
	called := false
	err := s.UpdateFileOpts(path, fsys.WriteOptions{Owned: true}, func(old []byte) ([]byte, error) {
		called = true
		return append(old, "x: 1\n"...), nil
	})
	var re *fsys.ReadOnlyError
	if !errors.As(err, &re) || !called {
		t.Fatalf("want a read-only refusal, got %v", err)
	}
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "chmod u+w") {
		t.Errorf("message %q", err)
	}
	if got := readFile(t, path); got != "rules:\n  tier: full\n" {
		t.Fatalf("read-only file changed: %q", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o444 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	noTempFiles(t, home)

	// A writer killed with kill -9 left its temporary files.
	os.Chmod(path, 0o600)
	for _, n := range []string{fsys.TempName("settings.yaml", 0x0badc0de), ".charter-tmp-settings.yaml-12345"} {
		os.WriteFile(filepath.Join(dir, n), []byte("half"), 0o600)
	}
	os.WriteFile(filepath.Join(dir, ".charter-tmp-dismissals.json-1"), []byte("another file's"), 0o600)
	os.WriteFile(filepath.Join(dir, ".settings.yaml.tmp-1"), []byte("the user's"), 0o600)
	if err := write(s, path, "a: 1\n", false); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if all := strings.Join(names, " "); strings.Contains(all, ".charter-tmp-settings.yaml-") || !strings.Contains(all, ".charter-tmp-dismissals.json-1") || !strings.Contains(all, ".settings.yaml.tmp-1") {
		t.Fatalf("after the write: %v", names)
	}
}

// WriteAtomic holds no lock, so it removes only temporary files old enough
// to be a killed writer's (fsys.StaleTempAge); a fresh one may be a live
// writer's and stays.
func TestWriteAtomicRemovesOldTemps(t *testing.T) {
	s, home := tempHome(t)
	dir := filepath.Join(home, ".agentkit/charter")
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, "local-server.token")
	old := time.Now().Add(-2 * fsys.StaleTempAge)
	for _, n := range []string{".charter-tmp-local-server.token-123", ".charter-tmp-local-server.token-0badc0de", ".charter-tmp-local-server.json-123", ".charter-tmp-local-server.token-11fe", ".local-server.token.tmp-123"} {
		p := filepath.Join(dir, n)
		os.WriteFile(p, []byte("half"), 0o600)
		if n != ".charter-tmp-local-server.token-11fe" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.WriteAtomic(path, []byte("token\n")); err != nil {
		t.Fatal(err)
	}
	for n, want := range map[string]bool{
		".charter-tmp-local-server.token-123": false, ".charter-tmp-local-server.token-0badc0de": false,
		".charter-tmp-local-server.token-11fe": true, // in flight, for all this write knows
		".charter-tmp-local-server.json-123":   true, // another file's: its own write removes it
		".local-server.token.tmp-123":          true, // the user's: not charter's pattern
		"local-server.token":                   true,
	} {
		if _, err := os.Lstat(filepath.Join(dir, n)); (err == nil) != want {
			t.Errorf("%s exists=%v, want %v", n, err == nil, want)
		}
	}
	if got := readFile(t, path); got != "token\n" {
		t.Fatalf("token %q", got)
	}
}

// currentUmask reads the process umask (setting it back at once).
func currentUmask() fs.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return fs.FileMode(m)
}
