package fsys

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentkit/charter/core/internal/swaptest"
)

// A helper flips a project folder with a link into the repository's git
// folder (renameat2 RENAME_EXCHANGE) in a tight loop while whole-file
// walks write below it, creating what is missing. The git folder's hooks
// must stay as they were: each write is refused or lands in the project's
// own folder, and no temporary file remains anywhere.
func TestGitFolderSwapRace(t *testing.T) {
	tr, root := repo(t)
	tr.dir("proj/.claude/skills/x")
	tr.link("proj/.claude/skills/x.swap", "../../.git/hooks")
	dir, swap := tr.p("proj/.claude/skills/x"), tr.p("proj/.claude/skills/x.swap")
	stop := swaptest.Flip(t, dir, swap)
	var written, refused atomic.Int64
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				tg, err := Walk(tr.p("proj/.claude/skills/x/pre-commit"), Options{Boundary: root, Create: true, DirMode: 0o755, StrictLinks: true})
				var ge *GitDirError
				var le *LinkedError
				var ce *ChangedError
				switch {
				case errors.As(err, &ge) || errors.As(err, &le) || errors.As(err, &ce):
					refused.Add(1)
					continue
				case err != nil:
					t.Errorf("walk: %v", err)
					return
				}
				err = tg.Write([]byte("#!/bin/sh\necho pwned\n"), Perm{New: 0o755})
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
	t.Logf("git folder swap race: %d written, %d refused, %d flips", written.Load(), refused.Load(), flips)
	entries, err := os.ReadDir(tr.p("proj/.git/hooks"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf(".git/hooks holds %s: a write reached the git folder", e.Name())
	}
	noTemps(t, tr.base)
}
