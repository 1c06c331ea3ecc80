//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

// syncEach fsyncs the staged files from a few goroutines at once: the
// disk sees the flushes together rather than one after another.
func syncEach(ss []*Staged) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	next := make(chan *Staged)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				if err := unix.Fsync(s.fd); err != nil {
					mu.Lock()
					if first == nil {
						first = fmt.Errorf("write %s: %w", s.t.Path, err)
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, s := range ss {
		if s.fd >= 0 {
			next <- s
		}
	}
	close(next)
	wg.Wait()
	return first
}
