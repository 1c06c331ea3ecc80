// Package swaptest races a path against a link: the flipper the race
// tests of core and core/fsys share. Only _test.go files import it.
package swaptest

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// Flip exchanges a and b (renameat2 RENAME_EXCHANGE) in a tight loop, and
// returns once the first exchange is done; stop ends the loop and says how
// many exchanges there were. It skips t where the kernel cannot exchange.
func Flip(t testing.TB, a, b string) (stop func() int64) {
	t.Helper()
	if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
		t.Skipf("renameat2 RENAME_EXCHANGE: %v", err)
	}
	unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)

	done := make(chan struct{})
	var flips atomic.Int64
	var flipper sync.WaitGroup
	flipper.Add(1)
	go func() {
		defer flipper.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			if unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE) == nil {
				flips.Add(1)
			}
			runtime.Gosched() // tight, but let the writers run on a busy machine
		}
	}()
	for flips.Load() == 0 {
		runtime.Gosched()
	}
	return func() int64 {
		close(done)
		flipper.Wait()
		return flips.Load()
	}
}
