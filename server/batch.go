package server

import (
	"sync"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/settings"
)

// writeBatcher groups the PATCHes of one file that arrive while a write of
// it is under way into the next write: one lock, one fsync and one rename
// for all of them (settings.Store.WriteAll), each checked in arrival order
// against the file as the ones before it left it. Every client is answered
// only once the write that holds its change is on disk, so a batch keeps
// every guarantee of single writes and costs one write.
type writeBatcher struct {
	mu     sync.Mutex
	queues map[string]*writeQueue
}

// writeQueue is one file's: whether a batch is being written, and what
// waits for the next.
type writeQueue struct {
	busy    bool
	waiting []*pendingWrite
}

type pendingWrite struct {
	u    settings.Update
	res  settings.Result
	done chan bool // true: lead the next batch; false: res is set
}

// write runs u in a batch for the file key. run writes a batch and
// returns one result per update; it runs in the goroutine of the batch's
// first request.
func (b *writeBatcher) write(key string, u settings.Update, run func([]settings.Update) []settings.Result) settings.Result {
	p := &pendingWrite{u: u, done: make(chan bool, 1)}
	b.mu.Lock()
	if b.queues == nil {
		b.queues = map[string]*writeQueue{}
	}
	q := b.queues[key]
	if q == nil {
		q = &writeQueue{}
		b.queues[key] = q
	}
	q.waiting = append(q.waiting, p)
	if q.busy {
		b.mu.Unlock()
		if lead := <-p.done; !lead {
			return p.res
		}
		b.mu.Lock()
	}
	q.busy = true
	batch := q.waiting
	q.waiting = nil
	b.mu.Unlock()

	// Whatever run does, even panic, every waiter is answered and the
	// queue moves on: a stuck queue would block every later write.
	defer func() {
		v := recover()
		for _, w := range batch {
			if v != nil {
				w.res = settings.Result{Err: errcode.Errorf(core.CodeInternal, "internal error writing settings: %v (the server keeps running; please report this)", v)}
			}
			if w != p {
				w.done <- false
			}
		}
		b.mu.Lock()
		if len(q.waiting) > 0 {
			q.waiting[0].done <- true // it takes the queue as it then stands
		} else {
			q.busy = false
			delete(b.queues, key)
		}
		b.mu.Unlock()
		if v != nil {
			panic(v)
		}
	}()
	us := make([]settings.Update, len(batch))
	for i, w := range batch {
		us[i] = w.u
	}
	for i, r := range run(us) {
		batch[i].res = r
	}
	return p.res
}
