package fsys

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/internal/swaptest"
)

// TestBoundarySwapRace through one Files, whose walks start from the
// folders it holds between them: a held folder flipped with a link out of
// the project while writes run lets no write out of the project, and no
// temporary file remains.
func TestHeldSwapRace(t *testing.T) {
	tr, root := project(t)
	tr.file("proj/sub/deep/f.md", "", 0o644)
	tr.file("outside/dir/deep/f.md", "outside\n", 0o644)
	tr.link("proj/sub.swap", "../outside/dir")
	s := &Files{Fs: afero.NewOsFs(), Now: time.Now}
	defer s.Hold()()
	stop := swaptest.Flip(t, tr.p("proj/sub"), tr.p("proj/sub.swap"))
	var written, refused atomic.Int64
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				err := s.WriteAtomicOpts(tr.p("proj/sub/deep/f.md"), WriteOptions{Within: root, Whole: true}, fmt.Appendf(nil, "w%d.%d\n", g, i))
				var oe *OutsideError
				var le *LinkedError
				var ce *ChangedError
				switch {
				case err == nil:
					written.Add(1)
				case errors.As(err, &oe) || errors.As(err, &le) || errors.As(err, &ce):
					refused.Add(1)
				default:
					t.Errorf("write: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	flips := stop()
	if got := tr.read("outside/dir/deep/f.md"); got != "outside\n" {
		t.Errorf("a write went out of the project: %q", got)
	}
	t.Logf("held swap race: %d written, %d refused, %d flips", written.Load(), refused.Load(), flips)
	noTemps(t, tr.base)
}
