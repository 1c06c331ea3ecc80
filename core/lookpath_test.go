package core_test

import (
	"testing"

	"github.com/spf13/afero"
)

// LookPath searches the injected file system, never the machine's: the
// programs here exist only in memory.
func TestLookPath(t *testing.T) {
	fs := afero.NewMemMapFs()
	afero.WriteFile(fs, "/a/vi", nil, 0o644) // not executable
	afero.WriteFile(fs, "/b/vi", nil, 0o755) // the one
	afero.WriteFile(fs, "/c/vi", nil, 0o755) // later on PATH
	afero.WriteFile(fs, "vi", nil, 0o755)    // "." is never searched
	fs.MkdirAll("/a/nano", 0o755)            // a directory is no program
	s := testSystem(fs, "/", "PATH=:/a:/b:/c")
	if got := s.LookPath("vi"); got != "/b/vi" {
		t.Errorf("vi: %q, want /b/vi", got)
	}
	if got := s.LookPath("nano"); got != "" {
		t.Errorf("nano: %q, want none", got)
	}

	w := windowsSystem(afero.NewMemMapFs(), `PATH=C:\bin;C:\tools`, "PATHEXT=.COM;.EXE")
	afero.WriteFile(w.Fs, `C:\tools\notepad.exe`, nil, 0o644)
	afero.WriteFile(w.Fs, `C:\tools\code.cmd`, nil, 0o644)
	if got := w.LookPath("notepad"); got != `C:\tools\notepad.exe` {
		t.Errorf("notepad: %q", got)
	}
	if got := w.LookPath("code"); got != "" {
		t.Errorf("code: %q, want none (.CMD is not in PATHEXT)", got)
	}
	if got := w.LookPath("code.cmd"); got != `C:\tools\code.cmd` {
		t.Errorf("code.cmd: %q", got)
	}
}
