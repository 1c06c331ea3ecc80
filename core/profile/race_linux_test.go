package profile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/internal/swaptest"
)

// Issue 11, item 2: a helper flips a profile's real config directory with a
// link into the shared directory (renameat2 RENAME_EXCHANGE) in a tight
// loop while guarded writes run. No byte of the shared files may change
// without confirmation, no temporary file may remain, and every write that
// went through landed in the profile's own directory.
func TestSwapRace(t *testing.T) {
	_, home := tempHome(t)
	s := testSystem(afero.NewOsFs(), "/", "HOME="+home)
	profile := filepath.Join(home, ".agent-switch/claude/work")
	shared := filepath.Join(home, ".agent-switch/shared")
	config, swapped := filepath.Join(profile, "config"), filepath.Join(profile, "config.swap")
	files := []string{"CLAUDE.md", "settings.yaml"}
	sharedBefore := map[string][]byte{}
	for _, f := range files {
		sharedBefore[f] = []byte("shared original " + f + "\n")
		os.WriteFile(filepath.Join(shared, f), sharedBefore[f], 0o644)
	}
	os.MkdirAll(config, 0o755)
	for _, f := range files {
		os.WriteFile(filepath.Join(config, f), []byte("profile "+f+"\n"), 0o644)
	}
	if err := os.Symlink("../../shared", swapped); err != nil {
		t.Fatal(err)
	}
	stop := swaptest.Flip(t, config, swapped)

	// 200 writes, 4 at a time. A blocked write is tried again, as a user
	// would, until it goes through: every write meets the flipping link
	// many times.
	const writes, parallel, maxTries = 200, 4, 5000
	var attempts, blocked atomic.Int64
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i := range writes {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			target := filepath.Join(config, files[i%len(files)])
			for range maxTries {
				attempts.Add(1)
				err := s.UpdateFile(target, false, func(old []byte) ([]byte, error) {
					return append(old, fmt.Sprintf("write %d\n", i)...), nil
				})
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

	// Writes that went through the link without confirmation: any of our
	// marks in the shared files.
	through := 0
	for _, f := range files {
		got, _ := os.ReadFile(filepath.Join(shared, f))
		through += strings.Count(string(got), "write ")
		if !bytes.Equal(got, sharedBefore[f]) {
			t.Errorf("shared %s changed without confirmation: %q", f, got)
		}
	}
	// Every write that went through is in the profile's own files, whatever
	// name the real directory has now: nothing was lost either.
	real := config
	if fi, err := os.Lstat(config); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		real = swapped
	}
	landed := 0
	for _, f := range files {
		got, _ := os.ReadFile(filepath.Join(real, f))
		landed += strings.Count(string(got), "write ")
	}
	t.Logf("swap race: %d writes, %d attempts, %d blocked, %d flips, %d written through the link without confirmation",
		writes, attempts.Load(), blocked.Load(), flips, through)
	if through != 0 {
		t.Errorf("%d writes went through the shared link without confirmation", through)
	}
	if landed != writes {
		t.Errorf("%d writes done, %d landed in the profile", writes, landed)
	}
	noTempFiles(t, home)
}
