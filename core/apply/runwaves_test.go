package apply

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// An instruction file refused when Run writes it (read-only since the
// plan) stops the agents' other files: they wait until every instruction
// file is in its temporary name.
func TestRunRefusedInstructionFileStopsTheRest(t *testing.T) {
	m := newMachine(t)
	m.write(t, ".claude/CLAUDE.md", "# Mine\n")
	ts, err := Plan(context.Background(), m.sys, m.snap, []string{"claude"})
	if err != nil {
		t.Fatal(err)
	}
	var others []string
	for _, tg := range ts {
		if tg.block == nil && !tg.current {
			others = append(others, tg.Path)
		}
	}
	if len(others) == 0 {
		t.Fatal("the plan has no file besides CLAUDE.md to write")
	}
	if err := os.Chmod(m.path(".claude/CLAUDE.md"), 0o444); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), m.sys, ts, false); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("got %v, want CLAUDE.md refused as read-only", err)
	}
	for _, p := range others {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s was written after CLAUDE.md was refused", p)
		}
	}
}

// The agents' other files are written while the instruction files are
// made durable: CLAUDE.md's rename waits here for another file's write,
// which one wave after the other would never reach.
func TestRunOtherFilesOverlapInstructionFiles(t *testing.T) {
	m := newMachine(t)
	ts, err := Plan(context.Background(), m.sys, m.snap, []string{"claude"})
	if err != nil {
		t.Fatal(err)
	}
	other := make(chan struct{})
	var once sync.Once
	m.sys.BeforeRename = func(tmp string) {
		if !strings.Contains(filepath.Base(tmp), "CLAUDE.md") {
			once.Do(func() { close(other) })
			return
		}
		select {
		case <-other:
		case <-time.After(10 * time.Second):
			t.Error("no other file was written while CLAUDE.md waited for its rename")
		}
	}
	defer func() { m.sys.BeforeRename = nil }()
	rs, err := Run(context.Background(), m.sys, ts, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.State != StateWritten {
			t.Errorf("%s: %s", r.Path, r.State)
		}
	}
}
