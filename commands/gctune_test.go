package commands

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent is the collector's current target.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// collect runs collections until the target is want, or gives up after
// many (the finalizer that switches it runs after a collection, on its
// own goroutine).
func collect(want int) int {
	for range 200 {
		if gcPercent() == want {
			break
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	return gcPercent()
}

// A small live heap keeps the small-heap target; a collection that finds
// more than smallHeap live puts Go's own back; restore puts the caller's.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	restore := tuneGC()
	if got := gcPercent(); got != smallHeapGC {
		t.Fatalf("target %d, want %d", got, smallHeapGC)
	}
	for range 5 {
		runtime.GC()
	}
	if got := gcPercent(); got != smallHeapGC {
		t.Fatalf("a small heap switched the target to %d", got)
	}
	big := make([][]byte, 0, 64)
	for range 40 {
		big = append(big, make([]byte, 1<<20))
	}
	if got := collect(100); got != 100 {
		t.Fatalf("with 40 MB live the target stayed %d", got)
	}
	runtime.KeepAlive(big)
	restore()
	if got := gcPercent(); got != 100 {
		t.Fatalf("restore left %d", got)
	}

	debug.SetGCPercent(250)
	restore = tuneGC()
	restore()
	if got := gcPercent(); got != 250 {
		t.Fatalf("restore put %d back, want the caller's 250", got)
	}
	for range 3 {
		runtime.GC() // a finalizer armed before restore must not change it
	}
	if got := gcPercent(); got != 250 {
		t.Fatalf("after restore a collection set %d", got)
	}
}
