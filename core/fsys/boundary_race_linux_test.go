package fsys

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentkit/charter/core/internal/swaptest"
)

// A helper flips a project's directory with a link out of the project
// (renameat2 RENAME_EXCHANGE) in a tight loop while boundary walks write
// below it. No write may land outside; each one is refused or lands in the
// project's own directory, and no temporary file remains.
func TestBoundarySwapRace(t *testing.T) {
	tr, root := project(t)
	tr.file("proj/sub/f.md", "", 0o644)
	tr.file("outside/dir/f.md", "outside\n", 0o644)
	tr.link("proj/sub.swap", "../outside/dir")
	sub, swap := tr.p("proj/sub"), tr.p("proj/sub.swap")
	stop := swaptest.Flip(t, sub, swap)
	var written, refused atomic.Int64
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				tg, err := Walk(tr.p("proj/sub/f.md"), Options{Boundary: root})
				var oe *OutsideError
				var ce *ChangedError
				switch {
				case errors.As(err, &oe) || errors.As(err, &ce):
					refused.Add(1)
					continue
				case err != nil:
					t.Errorf("walk: %v", err)
					return
				}
				old, err := tg.Read(KindInstructions)
				if err == nil {
					err = tg.Write(append(old, fmt.Sprintf("w%d.%d\n", g, i)...), Perm{New: 0o644})
				}
				tg.Close()
				switch {
				case err == nil:
					written.Add(1)
				case !errors.As(err, &ce):
					t.Errorf("write: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	flips := stop()
	if got := tr.read("outside/dir/f.md"); got != "outside\n" {
		t.Errorf("a write went out of the project: %q", got)
	}
	real := sub
	if fi, err := os.Lstat(sub); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		real = swap
	}
	data, _ := os.ReadFile(real + "/f.md")
	t.Logf("boundary swap race: %d written, %d refused, %d flips", written.Load(), refused.Load(), flips)
	if written.Load() == 0 || refused.Load() == 0 {
		t.Logf("the race did not meet both outcomes this time")
	}
	if n := int64(strings.Count(string(data), "\n")); n > written.Load() {
		t.Errorf("%d lines in the project's file, %d writes", n, written.Load())
	}
	noTemps(t, tr.base)
}
