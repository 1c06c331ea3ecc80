package apply

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
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

// The agents' other files start while the instruction files are made
// durable: CLAUDE.md's rename waits here until a target of the second
// wave has begun, which one wave after the other would never reach. The
// wait is for the start, not the write: that write may need a lock stripe
// or folder lock the held CLAUDE.md still has.
func TestRunOtherFilesOverlapInstructionFiles(t *testing.T) {
	m := newMachine(t)
	ts, err := Plan(context.Background(), m.sys, m.snap, []string{"claude"})
	if err != nil {
		t.Fatal(err)
	}
	first, second := 0, 0
	for _, tg := range ts {
		switch {
		case tg.block != nil:
			first++
		case !tg.last:
			second++
		}
	}
	if first == 0 || second == 0 {
		t.Fatalf("the plan has %d instruction files and %d other files; the test needs both", first, second)
	}
	// Every target asks its context once as it begins (runTarget): the
	// call after the first wave's is a second-wave target's.
	ctx := &startCounter{Context: context.Background(), after: int64(first), other: make(chan struct{})}
	m.sys.BeforeRename = func(tmp string) {
		if !strings.Contains(filepath.Base(tmp), "CLAUDE.md") {
			return
		}
		select {
		case <-ctx.other:
		case <-time.After(10 * time.Second):
			t.Error("no other file began while CLAUDE.md waited for its rename")
		}
	}
	defer func() { m.sys.BeforeRename = nil }()
	rs, err := Run(ctx, m.sys, ts, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.State != StateWritten {
			t.Errorf("%s: %s", r.Path, r.State)
		}
	}
}

// startCounter closes other once Err is asked more than after times.
type startCounter struct {
	context.Context
	after int64
	n     atomic.Int64
	other chan struct{}
}

func (c *startCounter) Err() error {
	if c.n.Add(1) == c.after+1 {
		close(c.other)
	}
	return c.Context.Err()
}
