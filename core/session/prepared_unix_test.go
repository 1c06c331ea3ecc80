//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An instruction file is written ahead, while the projected files are
// staged, and renamed in place after them. A person's edit of it in
// between is kept: the file written ahead gives way and the run writes
// it again from the edited file.
func TestEditBetweenWriteAheadAndRenameKept(t *testing.T) {
	m := newMemoWorld(t)
	agents := filepath.Join(m.proj, "AGENTS.md")
	if err := os.WriteFile(agents, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(agents, old, old)
	time.Sleep(60 * time.Millisecond) // past the racy window: it may be written ahead
	edited := false
	m.sys.Files.BeforeRename = func(tmp string) {
		if !edited && !strings.Contains(filepath.Base(tmp), "AGENTS.md") {
			edited = true
			f, err := os.OpenFile(agents, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Error(err)
				return
			}
			f.WriteString("added meanwhile\n")
			f.Close()
		}
	}
	if _, err := m.session().Apply(context.Background(), ApplyRequest{Project: true, Agents: []string{"claude", "codex"}}); err != nil {
		t.Fatal(err)
	}
	m.sys.Files.BeforeRename = nil
	if !edited {
		t.Fatal("the run renamed nothing before AGENTS.md")
	}
	b, err := os.ReadFile(agents)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.Contains(s, "mine\n") || !strings.Contains(s, "added meanwhile\n") || !strings.Contains(s, "Say why.") {
		t.Fatalf("AGENTS.md after an edit during the run:\n%s", s)
	}
	entries, _ := os.ReadDir(m.proj)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".charter-tmp-") {
			t.Fatalf("temporary file left: %s", e.Name())
		}
	}
}
