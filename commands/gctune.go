package commands

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// Apply's garbage collector: a run whose live heap stays small (100 rules
// live in about 2 MB) collects at GOGC 400, a fifth as often as Go's
// default, which saves a sixth of a cold run's CPU; once a collection finds
// more than smallHeap live (a library of thousands of items), Go's own
// target (GOGC 100) again, so a big library peaks near twice its live heap
// (at 3,000 rules about 40 MB live), not five times (docs/performance.md).
const (
	smallHeapGC = 400
	smallHeap   = 16 << 20
)

// gcSentinel carries a pointer so that it is never batched with other tiny
// allocations: its finalizer must run after the collection that frees it.
type gcSentinel struct{ _ *int }

// tuneGC sets the small-heap target until a collection finds the live heap
// past smallHeap, and returns what puts the caller's target back.
func tuneGC() (restore func()) {
	old := debug.SetGCPercent(smallHeapGC)
	var done atomic.Bool
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
			if done.Load() {
				return
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > smallHeap {
				if done.CompareAndSwap(false, true) {
					debug.SetGCPercent(old)
				}
				return
			}
			arm() // after the next collection, look again
		})
	}
	arm()
	return func() {
		if done.CompareAndSwap(false, true) {
			debug.SetGCPercent(old)
		}
	}
}
