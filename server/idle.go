package server

import (
	"sync"
	"time"
)

// watchdog fires after a stretch without authenticated API requests. It is
// armed by the first one, so a server nobody has talked to yet waits for its
// hub to be opened.
type watchdog struct {
	timeout time.Duration
	mu      sync.Mutex
	timer   *time.Timer
	fired   chan struct{}
	once    sync.Once
}

func newWatchdog(timeout time.Duration) *watchdog {
	return &watchdog{timeout: timeout, fired: make(chan struct{})}
}

// touch records activity, arming the watchdog on the first call.
func (w *watchdog) touch() {
	if w.timeout <= 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer == nil {
		w.timer = time.AfterFunc(w.timeout, func() { w.once.Do(func() { close(w.fired) }) })
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
