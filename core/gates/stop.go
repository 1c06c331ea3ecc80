package gates

import (
	"os"
	"sync"
	"time"
)

// stopper ends a command charter gives up on, from a timer: SIGTERM to
// its group at once, SIGKILL after grace.
type stopper struct {
	mu     sync.Mutex
	g      group
	grace  time.Duration
	reason string      // "" while the command runs by itself
	done   bool        // the command has been waited for
	kill   *time.Timer // the pending SIGKILL
}

func newStopper(g group, grace time.Duration) *stopper { return &stopper{g: g, grace: grace} }

func (s *stopper) trigger(reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done || s.reason != "" {
		return
	}
	s.reason = reason
	s.g.terminate()
	s.kill = time.AfterFunc(s.grace, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.done {
			s.g.kill()
		}
	})
}

// finish marks the command waited for, so no timer signals its group any
// more (its id could be reused), and returns why it was stopped, if it was.
func (s *stopper) finish() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
	if s.kill != nil {
		s.kill.Stop()
	}
	return s.reason
}

// sweep ends what a finished command left running in its group and
// reports whether there was anything.
func sweep(g group, grace time.Duration) bool {
	if !g.alive() {
		return false
	}
	g.terminate()
	if !waitGone(g, grace) {
		g.kill()
	}
	return true
}

// waitGone waits until no process of the group remains, at most d.
func waitGone(g group, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for step := time.Millisecond; g.alive(); step = min(step*2, 50*time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(step)
	}
	return true
}

// drain waits for the output reader to reach the end of the pipe. A
// process outside the group (one that started its own session) may still
// hold it open, so the wait is bounded: by a read deadline where pipes have
// them, else by grace, after which the reader is abandoned (out stops
// forwarding lines, so progress calls still never overlap).
func drain(r *os.File, read <-chan struct{}, out *tail, grace time.Duration) {
	select {
	case <-read:
	default:
		r.SetReadDeadline(time.Now().Add(grace))
		select {
		case <-read:
		case <-time.After(2 * grace):
			out.detach()
		}
	}
	r.Close()
}
