package fsys

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Parallel calls f(0) … f(n-1) from a few goroutines at once and returns
// the error of the lowest i that failed (every call still runs). A batch's
// file system calls on distinct names go to the kernel together: on a disk
// and a journal shared by every directory, their waits overlap.
func Parallel(n int, f func(i int) error) error {
	workers := min(n, max(4, runtime.GOMAXPROCS(0)))
	if workers <= 1 {
		var first error
		for i := range n {
			if err := f(i); err != nil && first == nil {
				first = err
			}
		}
		return first
	}
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				errs[i] = f(i)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
