package core_test

import (
	"time"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/profile"

	"testing"

	"github.com/spf13/afero"
)

// Windows rules run on every platform through an injected fsys.PathStyle.

// testSystem is a System as charter builds one, guard included.
func testSystem(fs afero.Fs, wd string, environ ...string) *core.System {
	return core.NewSystem(fs, environ, time.Now, func() (string, error) { return wd, nil }, profile.Guard)
}

func windowsSystem(fs afero.Fs, environ ...string) *core.System {
	s := testSystem(fs, `C:\work`, environ...)
	s.Paths = fsys.PathStyle{Windows: true}
	return s
}

func TestWindowsPathStyle(t *testing.T) {
	w := fsys.PathStyle{Windows: true}
	for _, c := range []struct{ in, clean string }{
		{`C:\Users\me\`, `C:\Users\me`},
		{`C:/Users/me/./x/../y`, `C:\Users\me\y`},
		{`c:\`, `c:\`},
		{`\\srv\share\a\..\b`, `\\srv\share\b`},
		{`rel\a\`, `rel\a`},
	} {
		if got := w.Clean(c.in); got != c.clean {
			t.Errorf("Clean(%q) = %q, want %q", c.in, got, c.clean)
		}
	}
	for p, abs := range map[string]bool{`C:\x`: true, `C:x`: false, `\x`: false, `\\srv\share\x`: true, `x`: false, `C:/x`: true} {
		if w.IsAbs(p) != abs {
			t.Errorf("IsAbs(%q) = %v", p, !abs)
		}
	}
	segs, ok := w.Within(`C:\Users\me\.agent-switch`, `c:\users\ME\.agent-switch\claude\work`)
	if !ok || len(segs) != 2 || segs[0] != "claude" || segs[1] != "work" {
		t.Errorf("Within is case-insensitive on Windows: %v %v", segs, ok)
	}
	if got := w.Ancestors(`C:\h\.agent-switch\a\b`, `C:\h\.agent-switch`); len(got) != 3 || got[2] != `C:\h\.agent-switch` {
		t.Errorf("Ancestors %q", got)
	}
}

func TestWindowsPathext(t *testing.T) {
	fs := afero.NewMemMapFs()
	afero.WriteFile(fs, `D:\tools\agent-switch.cmd`, []byte("@echo off"), 0o644)
	afero.WriteFile(fs, `D:\other\agent-switch`, []byte("not for windows"), 0o755)
	s := windowsSystem(fs, `USERPROFILE=C:\Users\me`, `PATH=D:\other;;D:\tools`, `PATHEXT=.COM;.EXE;.BAT;.CMD`)
	if got := s.LookPathIn(core.CompanionBinary, new([]string)); got != `D:\tools\agent-switch.cmd` {
		t.Fatalf("LookPathIn = %q", got)
	}
	// Without PATHEXT the standard list applies.
	s = windowsSystem(fs, `USERPROFILE=C:\Users\me`, `PATH=D:\tools`)
	if got := s.LookPathIn(core.CompanionBinary, new([]string)); got != `D:\tools\agent-switch.cmd` {
		t.Fatalf("default PATHEXT: %q", got)
	}
	// An extension that is not listed is not run-able.
	s = windowsSystem(fs, `USERPROFILE=C:\Users\me`, `PATH=D:\tools`, `PATHEXT=.EXE`)
	if got := s.LookPathIn(core.CompanionBinary, new([]string)); got != "" {
		t.Fatalf("found %q with PATHEXT=.EXE", got)
	}
}
