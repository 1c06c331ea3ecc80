//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// tree is a real directory tree under t.TempDir(): links, modes and renames
// behave as they do for users.
type tree struct {
	t    testing.TB
	base string
}

func newTree(t testing.TB) tree {
	t.Helper()
	// EvalSymlinks: macOS's TempDir lies behind /var -> /private/var.
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return tree{t, base}
}

func (tr tree) p(rel string) string { return filepath.Join(tr.base, rel) }

func (tr tree) dir(rels ...string) {
	tr.t.Helper()
	for _, r := range rels {
		if err := os.MkdirAll(tr.p(r), 0o755); err != nil {
			tr.t.Fatal(err)
		}
	}
}

func (tr tree) file(rel, data string, mode fs.FileMode) {
	tr.t.Helper()
	tr.dir(filepath.Dir(rel))
	if err := os.WriteFile(tr.p(rel), []byte(data), mode); err != nil {
		tr.t.Fatal(err)
	}
	if err := os.Chmod(tr.p(rel), mode); err != nil { // past the umask
		tr.t.Fatal(err)
	}
}

func (tr tree) link(rel, text string) {
	tr.t.Helper()
	tr.dir(filepath.Dir(rel))
	if err := os.Symlink(text, tr.p(rel)); err != nil {
		tr.t.Fatal(err)
	}
}

func (tr tree) read(rel string) string {
	tr.t.Helper()
	data, err := os.ReadFile(tr.p(rel))
	if err != nil {
		tr.t.Fatal(err)
	}
	return string(data)
}

// mustLink fails unless rel is still a link with the same text.
func (tr tree) mustLink(rel, text string) {
	tr.t.Helper()
	got, err := os.Readlink(tr.p(rel))
	if err != nil || got != text {
		tr.t.Fatalf("%s: link %q %v, want %q", rel, got, err, text)
	}
}

// noTemps fails when any of charter's temporary files is left under root.
func noTemps(t testing.TB, roots ...string) {
	t.Helper()
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if _, ok := TempOf(d.Name()); err == nil && ok {
				t.Errorf("temporary file left: %s", p)
			}
			return nil
		})
	}
}

// companion builds home/.agent-switch with a profile and a shared
// directory, the profile's config a link into the shared one.
func companion(t testing.TB) (tree, string) {
	tr := newTree(t)
	tr.dir("home/.agent-switch/claude/work", "home/.agent-switch/shared")
	tr.file("home/.agent-switch/shared/CLAUDE.md", "shared original\n", 0o644)
	tr.link("home/.agent-switch/claude/work/config", "../../shared")
	return tr, tr.p("home/.agent-switch")
}

func write(path string, o Options, data string) error {
	t, err := Walk(path, o)
	if err != nil {
		return err
	}
	defer t.Close()
	return t.Write([]byte(data), Perm{New: 0o600})
}

func TestBlockedInsideTree(t *testing.T) {
	tr, home := companion(t)
	target := tr.p("home/.agent-switch/claude/work/config/CLAUDE.md")
	err := write(target, Options{Home: home, Create: true, DirMode: 0o700}, "x")
	var be *BlockedError
	if !errors.As(err, &be) || be.Link != tr.p("home/.agent-switch/claude/work/config") {
		t.Fatalf("want blocked at config, got %v", err)
	}
	if got := tr.read("home/.agent-switch/shared/CLAUDE.md"); got != "shared original\n" {
		t.Fatalf("blocked write changed the file: %q", got)
	}
	// Confirmed: written at the real place; the link stays.
	tg, err := Walk(target, Options{Home: home, Confirmed: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	if tg.Shared != tr.p("home/.agent-switch/claude/work/config") || tg.Dir != tr.p("home/.agent-switch/shared") {
		t.Fatalf("shared %q dir %q", tg.Shared, tg.Dir)
	}
	if err := tg.Write([]byte("confirmed\n"), Perm{}); err != nil {
		t.Fatal(err)
	}
	if got := tr.read("home/.agent-switch/shared/CLAUDE.md"); got != "confirmed\n" {
		t.Fatalf("confirmed write: %q", got)
	}
	tr.mustLink("home/.agent-switch/claude/work/config", "../../shared")
	noTemps(t, tr.base)
}

// The tree is decided by identity: every spelling that leads to the
// companion home is the tree.
func TestAliasSpellings(t *testing.T) {
	tr, home := companion(t)
	tr.link("alias", tr.p("home")) // ln -s $HOME /tmp/alias
	cases := []struct{ name, home, target string }{
		{"target through an alias of HOME", home, tr.p("alias/.agent-switch/claude/work/config/CLAUDE.md")},
		{"companion home spelled through the alias", tr.p("alias/.agent-switch"), tr.p("home/.agent-switch/claude/work/config/CLAUDE.md")},
		{"both through the alias", tr.p("alias/.agent-switch"), tr.p("alias/.agent-switch/claude/work/config/CLAUDE.md")},
		{"dot-dot in the spelling", home, tr.p("home/x/../.agent-switch/claude/work/config/CLAUDE.md")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := write(c.target, Options{Home: c.home, Create: true, DirMode: 0o700}, "x")
			var be *BlockedError
			if !errors.As(err, &be) {
				t.Fatalf("not blocked: %v", err)
			}
			// The link is named as the user spelled the path.
			if want := strings.TrimSuffix(filepath.Clean(c.target), "/CLAUDE.md"); be.Link != want {
				t.Errorf("link %q, want %q", be.Link, want)
			}
		})
	}
	if got := tr.read("home/.agent-switch/shared/CLAUDE.md"); got != "shared original\n" {
		t.Fatalf("changed: %q", got)
	}
	// The companion home itself reached through a link is the way into the
	// tree, not a link inside it.
	tr.dir("home/.agent-switch/claude/solo/config")
	if err := write(tr.p("alias/.agent-switch/claude/solo/config/CLAUDE.md"), Options{Home: tr.p("alias/.agent-switch")}, "solo"); err != nil {
		t.Fatal(err)
	}
	noTemps(t, tr.base)
}

// A link met while walking a link's text is named by where it really is.
func TestBlockedLinkFromLinkText(t *testing.T) {
	tr, home := companion(t)
	tr.link("elsewhere", tr.p("home/.agent-switch/claude/work/config/CLAUDE.md"))
	var be *BlockedError
	err := write(tr.p("elsewhere"), Options{Home: home}, "x")
	if !errors.As(err, &be) || be.Link != tr.p("home/.agent-switch/claude/work/config") {
		t.Fatalf("got %v", err)
	}
}

// Outside the tree links are followed and kept: dotfiles managers link
// ~/.claude/CLAUDE.md into a repository.
func TestOutsideLinksFollowedAndKept(t *testing.T) {
	tr, home := companion(t)
	tr.file("dotfiles/claude/CLAUDE.md", "mine\n", 0o644)
	tr.link("home/.claude/CLAUDE.md", "../../dotfiles/claude/CLAUDE.md")
	if err := write(tr.p("home/.claude/CLAUDE.md"), Options{Home: home}, "final link\n"); err != nil {
		t.Fatal(err)
	}
	tr.mustLink("home/.claude/CLAUDE.md", "../../dotfiles/claude/CLAUDE.md")
	if got := tr.read("dotfiles/claude/CLAUDE.md"); got != "final link\n" {
		t.Fatalf("target %q", got)
	}
	// An ancestor link: ~/.config -> dotfiles/config.
	tr.dir("dotfiles/config/charter")
	tr.link("home/.config", "../dotfiles/config")
	if err := write(tr.p("home/.config/charter/settings.yaml"), Options{Home: home, Create: true, DirMode: 0o700}, "ancestor\n"); err != nil {
		t.Fatal(err)
	}
	tr.mustLink("home/.config", "../dotfiles/config")
	if got := tr.read("dotfiles/config/charter/settings.yaml"); got != "ancestor\n" {
		t.Fatalf("target %q", got)
	}
	// A dangling link: the write creates its target, the link stays.
	tr.link("home/.claude/AGENTS.md", "../../dotfiles/claude/AGENTS.md")
	if err := write(tr.p("home/.claude/AGENTS.md"), Options{Home: home}, "dangling\n"); err != nil {
		t.Fatal(err)
	}
	tr.mustLink("home/.claude/AGENTS.md", "../../dotfiles/claude/AGENTS.md")
	if got := tr.read("dotfiles/claude/AGENTS.md"); got != "dangling\n" {
		t.Fatalf("target %q", got)
	}
	// An absolute link.
	tr.link("home/abs.md", tr.p("dotfiles/abs.md"))
	if err := write(tr.p("home/abs.md"), Options{Home: home}, "abs\n"); err != nil {
		t.Fatal(err)
	}
	if got := tr.read("dotfiles/abs.md"); got != "abs\n" {
		t.Fatalf("target %q", got)
	}
	tr.mustLink("home/abs.md", tr.p("dotfiles/abs.md"))
	noTemps(t, tr.base)
}

func TestLinkLoopAndNonFiles(t *testing.T) {
	tr, home := companion(t)
	tr.link("loop/a", "b")
	tr.link("loop/b", "a")
	tr.link("self", "self/x")
	for _, p := range []string{tr.p("loop/a"), tr.p("loop/a/deeper/file"), tr.p("self")} {
		var le *LinkLoopError
		if err := write(p, Options{Home: home, Create: true, DirMode: 0o700}, "x"); !errors.As(err, &le) || le.Code() != "link_loop" {
			t.Errorf("%s: want a link loop, got %v", p, err)
		} else if !strings.Contains(err.Error(), "loop") {
			t.Errorf("message %q", err)
		}
	}
	// A directory where a file is expected, also through a link.
	tr.dir("adir")
	tr.link("todir", "adir")
	for _, p := range []string{tr.p("adir"), tr.p("todir"), tr.p("adir/..")} {
		var de *IsDirError
		if err := write(p, Options{Home: home}, "x"); !errors.As(err, &de) {
			t.Errorf("%s: want a directory error, got %v", p, err)
		}
		tg, err := Walk(p, Options{Home: home})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tg.Read(KindInstructions); !errors.As(err, &de) {
			t.Errorf("%s: read %v", p, err)
		}
		tg.Close()
	}
	// A file where a directory is expected.
	tr.file("afile", "x", 0o644)
	var nd *NotDirError
	if err := write(tr.p("afile/sub/f"), Options{Home: home, Create: true, DirMode: 0o700}, "x"); !errors.As(err, &nd) || nd.Path != tr.p("afile") {
		t.Errorf("want not a directory, got %v", err)
	}
	// A FIFO is not replaced, and reading it does not hang.
	if err := syscall.Mkfifo(tr.p("fifo"), 0o644); err == nil {
		tg, err := Walk(tr.p("fifo"), Options{Home: home})
		if err != nil {
			t.Fatal(err)
		}
		var ne *NotRegularError
		if _, err := tg.Read(KindInstructions); !errors.As(err, &ne) {
			t.Errorf("read fifo: %v", err)
		}
		if err := tg.Write([]byte("x"), Perm{}); !errors.As(err, &ne) {
			t.Errorf("write fifo: %v", err)
		}
		tg.Close()
	}
	if _, err := Walk("relative/path", Options{}); err == nil {
		t.Error("relative path accepted")
	}
	noTemps(t, tr.base)
}

func TestModes(t *testing.T) {
	tr, _ := companion(t)
	tr.file("own/settings.yaml", "a: 1\n", 0o644)
	tr.file("user/CLAUDE.md", "mine\n", 0o644)
	tr.file("user/private.md", "mine\n", 0o640)
	cases := []struct {
		rel  string
		perm Perm
		want fs.FileMode
	}{
		{"own/settings.yaml", Perm{Fixed: 0o600}, 0o600}, // charter's own: narrowed
		{"own/new.json", Perm{Fixed: 0o600}, 0o600},
		{"user/CLAUDE.md", Perm{New: 0o644}, 0o644}, // the user's: kept
		{"user/private.md", Perm{New: 0o644}, 0o640},
	}
	for _, c := range cases {
		tg, err := Walk(tr.p(c.rel), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := tg.Write([]byte("new\n"), c.perm); err != nil {
			t.Fatal(err)
		}
		tg.Close()
		fi, err := os.Stat(tr.p(c.rel))
		if err != nil || fi.Mode().Perm() != c.want {
			t.Errorf("%s: %v %v, want %v", c.rel, fi.Mode().Perm(), err, c.want)
		}
	}
	// A new user file gets New less the umask.
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	tg, _ := Walk(tr.p("user/new.md"), Options{})
	if err := tg.Write([]byte("x"), Perm{New: 0o644}); err != nil {
		t.Fatal(err)
	}
	tg.Close()
	if fi, _ := os.Stat(tr.p("user/new.md")); fi.Mode().Perm() != 0o640 {
		t.Errorf("new file %v, want 0640", fi.Mode().Perm())
	}
}

// Create makes the missing directories with DirMode; without it nothing is
// created and the target says so.
func TestCreateAndMissing(t *testing.T) {
	tr, _ := companion(t)
	tg, err := Walk(tr.p("a/b/c/f"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !tg.Missing || tg.Dir != tr.p("a/b/c") || tg.Name != "f" {
		t.Fatalf("missing %v dir %q name %q", tg.Missing, tg.Dir, tg.Name)
	}
	if data, err := tg.Read(KindInstructions); data != nil || err != nil {
		t.Fatalf("read missing: %q %v", data, err)
	}
	if err := tg.Write([]byte("x"), Perm{}); err == nil {
		t.Fatal("wrote below a missing directory")
	}
	tg.Close()
	if _, err := os.Stat(tr.p("a")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a walk without Create created %s", tr.p("a"))
	}
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	if err := write(tr.p("a/b/c/f"), Options{Create: true, DirMode: 0o700}, "x"); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"a", "a/b", "a/b/c"} {
		if fi, err := os.Stat(tr.p(d)); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v", d, fi.Mode().Perm(), err)
		}
	}
	if data, _ := os.ReadFile(tr.p("a/b/c/f")); string(data) != "x" {
		t.Fatalf("file %q", data)
	}
	// An empty existing file reads as empty, not absent.
	tr.file("empty", "", 0o644)
	tg, _ = Walk(tr.p("empty"), Options{})
	if data, err := tg.Read(KindInstructions); data == nil || len(data) != 0 || err != nil {
		t.Fatalf("empty file: %#v %v", data, err)
	}
	tg.Close()
}

// A read-only file is refused with a message that says how to fix it, and
// stays as it was.
func TestReadOnlyRefused(t *testing.T) {
	tr, _ := companion(t)
	tr.file("ro/settings.yaml", "keep: me\n", 0o444)
	tg, err := Walk(tr.p("ro/settings.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	err = tg.Write([]byte("new"), Perm{Fixed: 0o600})
	var re *ReadOnlyError
	if !errors.As(err, &re) || re.Code() != "read_only_file" {
		t.Fatalf("want read-only, got %v", err)
	}
	if !strings.Contains(err.Error(), "chmod u+w "+tr.p("ro/settings.yaml")) {
		t.Errorf("message %q", err)
	}
	if got := tr.read("ro/settings.yaml"); got != "keep: me\n" {
		t.Fatalf("file %q", got)
	}
	if fi, _ := os.Stat(tr.p("ro/settings.yaml")); fi.Mode().Perm() != 0o444 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	noTemps(t, tr.base)
}
