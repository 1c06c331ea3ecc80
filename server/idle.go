package server

import (
	"sync"
	"time"
)

// watchdog fires after a stretch without authenticated API requests. The
// first such request arms it (SPEC §6: a host may start the server long
// before it first calls); a request in flight holds it, and the clock
// restarts when the last one ends.
type watchdog struct {
	timeout time.Duration
	after   func(time.Duration, func()) timer // time.AfterFunc; tests inject theirs
	mu      sync.Mutex
	timer   timer
	busy    int // requests in flight
	fired   chan struct{}
	once    sync.Once
}

// timer is the part of *time.Timer the watchdog uses.
type timer interface {
	Stop() bool
	Reset(time.Duration) bool
}

func newWatchdog(timeout time.Duration) *watchdog {
	return &watchdog{timeout: timeout, fired: make(chan struct{}),
		after: func(d time.Duration, f func()) timer { return time.AfterFunc(d, f) }}
}

// begin holds the clock while a request runs.
func (w *watchdog) begin() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.busy++
	if w.timer != nil {
		w.timer.Stop()
	}
}

// end restarts the clock when the last request in flight is done.
func (w *watchdog) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.busy--
	if w.busy > 0 || w.timeout <= 0 {
		return
	}
	if w.timer == nil {
		w.timer = w.after(w.timeout, func() { w.once.Do(func() { close(w.fired) }) })
		return
	}
	w.timer.Reset(w.timeout)
}

// expired is closed when the watchdog fires; nil (never ready) without a timeout.
func (w *watchdog) expired() <-chan struct{} {
	if w.timeout <= 0 {
		return nil
	}
	return w.fired
}
