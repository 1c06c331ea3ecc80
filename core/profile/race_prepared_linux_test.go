package profile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
	"github.com/agentkit/charter/core/internal/swaptest"
)

// TestSwapRace for files written ahead (fsys.Files.Prepare, as a cold
// apply writes its instruction files): the profile's config directory
// flips with a link into the shared directory between the write ahead
// and its commit. A commit may only rename in place into the folder it
// wrote in when that is still the profile's own; else it gives way and
// the guarded write runs. No new file may appear in the shared
// directory, every write must land in the profile's, and no temporary
// file may remain.
func TestSwapRaceWrittenAhead(t *testing.T) {
	_, home := tempHome(t)
	s := testSystem(afero.NewOsFs(), "/", "HOME="+home)
	profile := filepath.Join(home, ".agent-switch/claude/work")
	shared := filepath.Join(home, ".agent-switch/shared")
	config, swapped := filepath.Join(profile, "config"), filepath.Join(profile, "config.swap")
	os.MkdirAll(config, 0o755)
	if err := os.Symlink("../../shared", swapped); err != nil {
		t.Fatal(err)
	}
	stop := swaptest.Flip(t, config, swapped)

	// Each write makes a file of its own: one that did not exist is never
	// too recent to write ahead, so every write meets the flip between
	// its write ahead and its commit.
	const writes, parallel, maxTries = 200, 4, 5000
	var committed, gaveWay, blocked atomic.Int64
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i := range writes {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			target := filepath.Join(config, fmt.Sprintf("rule-%d.md", i))
			body := fmt.Sprintf("write %d\n", i)
			for range maxTries {
				p := s.Prepare(target, fsys.WriteOptions{}, func(old afero.File) (func(io.Writer) error, error) {
					return func(w io.Writer) error { _, err := io.WriteString(w, body); return err }, nil
				})
				if p != nil {
					if s.CommitPrepared(p) {
						committed.Add(1)
						p.Abort() // its folder let go
						return
					}
					gaveWay.Add(1)
				}
				err := s.UpdateFile(target, false, func([]byte) ([]byte, error) { return []byte(body), nil })
				var se *core.SharedWriteError
				switch {
				case err == nil:
					return
				case errors.As(err, &se):
					blocked.Add(1)
				default:
					t.Errorf("write %d: %v", i, err)
					return
				}
			}
			t.Errorf("write %d blocked %d times in a row", i, maxTries)
		}()
	}
	wg.Wait()
	flips := stop()

	if entries, _ := os.ReadDir(shared); len(entries) != 0 {
		t.Errorf("the shared directory got %d files without confirmation, the first %s", len(entries), entries[0].Name())
	}
	real := config
	if fi, err := os.Lstat(config); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		real = swapped
	}
	landed := 0
	for i := range writes {
		got, _ := os.ReadFile(filepath.Join(real, fmt.Sprintf("rule-%d.md", i)))
		if strings.TrimSpace(string(got)) == fmt.Sprintf("write %d", i) {
			landed++
		}
	}
	t.Logf("written ahead under the flip: %d writes, %d committed ahead, %d gave way, %d blocked, %d flips",
		writes, committed.Load(), gaveWay.Load(), blocked.Load(), flips)
	if landed != writes {
		t.Errorf("%d writes done, %d landed in the profile", writes, landed)
	}
	if committed.Load() == 0 {
		t.Error("no write was committed ahead: the test did not reach CommitPrepared's rename")
	}
	noTempFiles(t, home)
}
