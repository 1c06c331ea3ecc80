package fsys

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Parallel calls f(0) … f(n-1) from one goroutine per core and returns
// the error of the lowest i that failed (every call still runs). A batch's
// file system calls on distinct names keep the kernel busy on every core;
// more goroutines than cores only take turns (measured: no faster).
func Parallel(n int, f func(i int) error) error {
	workers := min(n, runtime.GOMAXPROCS(0))
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

// Pipeline calls prepare(0) … prepare(n-1) one after another in the
// caller's goroutine and run(k) from a few goroutines as soon as
// prepare(k) has returned, so the two overlap. A prepare error stops it:
// no later prepare or run starts. The error is prepare's, else the run
// error of the lowest k.
func Pipeline(n int, prepare, run func(k int) error) error {
	errs := make([]error, n)
	workers := min(n, runtime.GOMAXPROCS(0))
	// prepare runs at most a few ahead of the runs: what it opens for
	// run(k) stays open until then (a Stager's folders), so that is
	// bounded too.
	ready := make(chan int, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range ready {
				errs[k] = run(k)
			}
		}()
	}
	var perr error
	for k := range n {
		if perr = prepare(k); perr != nil {
			break
		}
		ready <- k
	}
	close(ready)
	wg.Wait()
	if perr != nil {
		return perr
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Groups splits 0 … n-1 by key, each group in order and the groups in the
// order their keys first appear: the work of one folder, for one goroutine.
func Groups(n int, key func(i int) string) [][]int {
	var groups [][]int
	at := map[string]int{}
	for i := range n {
		k, ok := at[key(i)]
		if !ok {
			k = len(groups)
			at[key(i)] = k
			groups = append(groups, nil)
		}
		groups[k] = append(groups[k], i)
	}
	return groups
}
