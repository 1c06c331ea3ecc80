//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"errors"
	"testing"
)

// The Windows walk's rules, exercised on this system's links.
func TestPortableWalk(t *testing.T) {
	tr, home := companion(t)
	tr.link("alias", tr.p("home"))
	tr.file("dotfiles/CLAUDE.md", "mine\n", 0o644)
	tr.link("home/.claude/CLAUDE.md", "../../dotfiles/CLAUDE.md")
	tr.link("loop", "loop")
	pw := func(path string, o Options, data string) error {
		tg, err := portableWalk(path, o)
		if err != nil {
			return err
		}
		return tg.Write([]byte(data), Perm{New: 0o644})
	}
	var be *BlockedError
	for _, p := range []string{tr.p("alias/.agent-switch/claude/work/config/CLAUDE.md"), tr.p("home/.agent-switch/claude/work/config/CLAUDE.md")} {
		if err := pw(p, Options{Home: home}, "x"); !errors.As(err, &be) {
			t.Errorf("%s: not blocked: %v", p, err)
		}
	}
	if got := tr.read("home/.agent-switch/shared/CLAUDE.md"); got != "shared original\n" {
		t.Fatalf("shared file changed: %q", got)
	}
	if err := pw(tr.p("alias/.agent-switch/claude/work/config/CLAUDE.md"), Options{Home: home, Confirmed: true}, "confirmed\n"); err != nil {
		t.Fatal(err)
	}
	if got := tr.read("home/.agent-switch/shared/CLAUDE.md"); got != "confirmed\n" {
		t.Fatalf("confirmed: %q", got)
	}
	tr.mustLink("home/.agent-switch/claude/work/config", "../../shared")
	if err := pw(tr.p("alias/.claude/CLAUDE.md"), Options{Home: home}, "through\n"); err != nil {
		t.Fatal(err)
	}
	tr.mustLink("home/.claude/CLAUDE.md", "../../dotfiles/CLAUDE.md")
	if got := tr.read("dotfiles/CLAUDE.md"); got != "through\n" {
		t.Fatalf("dotfiles: %q", got)
	}
	var le *LinkLoopError
	if err := pw(tr.p("loop"), Options{Home: home}, "x"); !errors.As(err, &le) {
		t.Errorf("loop: %v", err)
	}
	tr.file("ro", "keep", 0o444)
	var re *ReadOnlyError
	if err := pw(tr.p("ro"), Options{}, "x"); !errors.As(err, &re) {
		t.Errorf("read-only: %v", err)
	}
	tg, err := portableWalk(tr.p("new/dir/f"), Options{})
	if err != nil || !tg.Missing {
		t.Fatalf("missing: %+v %v", tg, err)
	}
	if err := pw(tr.p("new/dir/f"), Options{Create: true, DirMode: 0o700}, "made\n"); err != nil {
		t.Fatal(err)
	}
	if got := tr.read("new/dir/f"); got != "made\n" {
		t.Fatalf("created: %q", got)
	}
	noTemps(t, tr.base)
}
