//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRemoveStale(t *testing.T) {
	tr, _ := companion(t)
	tr.file("d/settings.yaml", "a\n", 0o600)
	tr.file("d/"+TempName("settings.yaml", 0x1234abcd), "half", 0o600)
	tr.file("d/.charter-tmp-settings.yaml-123", "half, os.CreateTemp's decimal", 0o600)
	tr.file("d/"+TempName("other.yaml", 0x1234abcd), "not ours to judge", 0o600)
	tr.file("d/"+TempName("settings.yaml-x", 0x1234abcd), "settings.yaml-x's, not this name's", 0o600)
	tr.file("d/.settings.yaml.tmp-1234abcd", "a user's file that looks like one", 0o600)
	tr.file("d/.charter-tmp-settings.yaml-backup", "a user's file that looks like one", 0o600)
	tr.dir("d/" + TempName("settings.yaml", 0xd1d1d1d1))
	tg, err := Walk(tr.p("d/settings.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	if n, err := tg.RemoveStale(); n != 2 || err != nil {
		t.Fatalf("removed %d, %v", n, err)
	}
	for rel, want := range map[string]bool{
		"d/.charter-tmp-settings.yaml-1234abcd": false, "d/.charter-tmp-settings.yaml-123": false,
		"d/.charter-tmp-other.yaml-1234abcd": true, "d/.charter-tmp-settings.yaml-x-1234abcd": true,
		"d/.settings.yaml.tmp-1234abcd": true, "d/.charter-tmp-settings.yaml-backup": true,
		"d/.charter-tmp-settings.yaml-d1d1d1d1": true, "d/settings.yaml": true,
	} {
		if _, err := os.Lstat(tr.p(rel)); (err == nil) != want {
			t.Errorf("%s exists=%v, want %v", rel, err == nil, want)
		}
	}
}

// Without the lock only an old temporary file is provably stale: a fresh
// one may be a live writer's. Both walks keep the rule.
func TestRemoveStaleBefore(t *testing.T) {
	tr, _ := companion(t)
	tr.file("d/local-server.token", "old\n", 0o600)
	type remover interface {
		RemoveStaleBefore(time.Time) (int, error)
		Close() error
	}
	walks := map[string]func(string) (remover, error){
		"unix":     func(p string) (remover, error) { return Walk(p, Options{}) },
		"portable": func(p string) (remover, error) { return portableWalk(p, Options{}) },
	}
	now := time.Now()
	for name, walk := range walks {
		old := now.Add(-2 * time.Hour)
		tr.file("d/.charter-tmp-local-server.token-123", "killed", 0o600)
		tr.file("d/.charter-tmp-local-server.token-f4e5", "in flight", 0o600)
		tr.file("d/.charter-tmp-other-123", "not this name", 0o600)
		tr.file("d/.local-server.token.tmp-123", "a user's", 0o600)
		for _, rel := range []string{"d/.charter-tmp-local-server.token-123", "d/.charter-tmp-other-123", "d/.local-server.token.tmp-123"} {
			if err := os.Chtimes(tr.p(rel), old, old); err != nil {
				t.Fatal(err)
			}
		}
		tg, err := walk(tr.p("d/local-server.token"))
		if err != nil {
			t.Fatal(err)
		}
		defer tg.Close()
		if n, err := tg.RemoveStaleBefore(time.Time{}); n != 0 || err != nil {
			t.Fatalf("%s: no cutoff removed %d, %v", name, n, err)
		}
		if n, err := tg.RemoveStaleBefore(now.Add(-time.Hour)); n != 1 || err != nil {
			t.Fatalf("%s: removed %d, %v", name, n, err)
		}
		for rel, want := range map[string]bool{
			"d/.charter-tmp-local-server.token-123": false, "d/.charter-tmp-local-server.token-f4e5": true,
			"d/.charter-tmp-other-123": true, "d/.local-server.token.tmp-123": true,
		} {
			if _, err := os.Lstat(tr.p(rel)); (err == nil) != want {
				t.Errorf("%s: %s exists=%v, want %v", name, rel, err == nil, want)
			}
		}
	}
}

// A crash between the temporary file and the rename leaves the old file.
func TestWriteFailureLeavesNoTemp(t *testing.T) {
	tr, _ := companion(t)
	tr.file("d/f", "old", 0o600)
	tg, err := Walk(tr.p("d/f"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	// The name becomes a directory between the check and the rename.
	tg.BeforeRename = func(string) {
		os.Remove(tr.p("d/f"))
		os.Mkdir(tr.p("d/f"), 0o700)
	}
	if err := tg.Write([]byte("new"), Perm{}); err == nil {
		t.Fatal("rename over a directory succeeded")
	}
	noTemps(t, tr.base)
	// The name becomes a link: the link is not replaced.
	os.Remove(tr.p("d/f"))
	tr.file("d/g", "g", 0o600)
	tg.BeforeRename = func(string) { os.Symlink("g", tr.p("d/f")) }
	var ce *ChangedError
	if err := tg.Write([]byte("new"), Perm{}); !errors.As(err, &ce) {
		t.Fatalf("want changed, got %v", err)
	}
	tr.mustLink("d/f", "g")
	if got := tr.read("d/g"); got != "g" {
		t.Fatalf("link target written: %q", got)
	}
	noTemps(t, tr.base)
}

// The directory that was checked is the directory that is written: a
// swap after the walk does not redirect the write.
func TestCheckedDirIsWrittenDir(t *testing.T) {
	tr, home := companion(t)
	tr.dir("home/.agent-switch/claude/solo/config")
	tg, err := Walk(tr.p("home/.agent-switch/claude/solo/config/CLAUDE.md"), Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	// Swap the profile's config for a link into the shared directory.
	os.Rename(tr.p("home/.agent-switch/claude/solo/config"), tr.p("home/.agent-switch/claude/solo/real"))
	tr.link("home/.agent-switch/claude/solo/config", "../../shared")
	if err := tg.Write([]byte("profile only\n"), Perm{}); err != nil {
		t.Fatal(err)
	}
	if got := tr.read("home/.agent-switch/shared/CLAUDE.md"); got != "shared original\n" {
		t.Fatalf("write redirected into the shared directory: %q", got)
	}
	if got := tr.read("home/.agent-switch/claude/solo/real/CLAUDE.md"); got != "profile only\n" {
		t.Fatalf("profile file %q", got)
	}
}

// O_PATH lets the walk pass a directory the user may enter but not list.
func TestSearchOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may list any directory")
	}
	tr, _ := companion(t)
	tr.dir("locked/inner")
	if err := os.Chmod(tr.p("locked"), 0o311); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(tr.p("locked"), 0o755)
	err := write(tr.p("locked/inner/f"), Options{}, "x")
	if runtime.GOOS == "linux" && err != nil {
		t.Fatalf("search-only directory: %v", err)
	}
}

func TestLockKeys(t *testing.T) {
	tr, _ := companion(t)
	tr.file("real/f", "x", 0o600)
	tr.link("alias", "real")
	a, _ := Walk(tr.p("real/f"), Options{})
	b, _ := Walk(tr.p("alias/f"), Options{})
	m, _ := Walk(tr.p("real/missing/f"), Options{})
	defer a.Close()
	defer b.Close()
	defer m.Close()
	if !HeldKeys(a, b) || !HeldKeys(b, a) {
		t.Fatalf("two spellings, two keys: %v %v", a.lockKeys(), b.lockKeys())
	}
	if len(m.lockKeys()) != 1 || HeldKeys(m, a) {
		t.Fatalf("missing dir keys %v", m.lockKeys())
	}
	// Locks take at most one file per stripe, however many paths.
	locks := NewLocks()
	dir := tr.p("locks")
	for i := range 3 * Stripes {
		tg, err := Walk(filepath.Join(tr.p("real"), "f"+strings.Repeat("x", i)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		unlock, err := locks.Lock(dir, tg)
		if err != nil {
			t.Fatal(err)
		}
		unlock()
		tg.Close()
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) > Stripes || len(entries) < Stripes/2 {
		t.Fatalf("%d lock files for %d paths", len(entries), 3*Stripes)
	}
}

// root editing a user's file leaves it the user's.
func TestRootKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to hand a file to another user")
	}
	tr, _ := companion(t)
	tr.file("u/CLAUDE.md", "mine\n", 0o644)
	if err := os.Chown(tr.p("u/CLAUDE.md"), 1234, 5678); err != nil {
		t.Skip(err)
	}
	tg, err := Walk(tr.p("u/CLAUDE.md"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	if err := tg.Write([]byte("ours\n"), Perm{New: 0o644}); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(tr.p("u/CLAUDE.md"))
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 1234 || st.Gid != 5678 {
		t.Fatalf("owner %d:%d", st.Uid, st.Gid)
	}
}
