package server

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/settings"
)

// Writes that arrive while one is under way go out together in the next,
// each with its own result.
func TestWriteBatcherGroups(t *testing.T) {
	var b writeBatcher
	release := make(chan struct{})
	started := make(chan struct{})
	var mu sync.Mutex
	var calls [][]string
	run := func(us []settings.Update) []settings.Result {
		mu.Lock()
		first := len(calls) == 0
		var ids []string
		for _, u := range us {
			ids = append(ids, u.IfMatch)
		}
		calls = append(calls, ids)
		mu.Unlock()
		if first {
			close(started)
			<-release
		}
		res := make([]settings.Result, len(us))
		for i, u := range us {
			res[i].Err = errors.New(u.IfMatch) // echo, to check who gets what
		}
		return res
	}
	var wg sync.WaitGroup
	check := func(id string) {
		r := b.write("f", settings.Update{IfMatch: id}, run)
		if r.Err == nil || r.Err.Error() != id {
			t.Errorf("%s got %v", id, r.Err)
		}
	}
	wg.Go(func() { check("lead") })
	<-started
	for i := range 10 {
		wg.Go(func() { check(fmt.Sprint(i)) })
	}
	waitQueued(&b, "f", 10) // all ten behind the first write
	close(release)
	wg.Wait()
	if len(calls) != 2 || len(calls[0]) != 1 || len(calls[1]) != 10 {
		t.Fatalf("batches: %v", calls)
	}
	if len(b.queues) != 0 {
		t.Fatalf("queues left: %v", b.queues)
	}
}

// A write that panics answers every waiter in its batch with an internal
// error and leaves the queue free for the next write.
func TestWriteBatcherPanic(t *testing.T) {
	var b writeBatcher
	started, release := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	calls := 0
	run := func(us []settings.Update) []settings.Result {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		switch n {
		case 1:
			close(started)
			<-release
		case 2:
			panic("boom")
		}
		return make([]settings.Result, len(us))
	}
	var wg sync.WaitGroup
	wg.Go(func() { b.write("f", settings.Update{}, run) })
	<-started
	results := make(chan error, 2)
	panics := make(chan any, 2)
	for range 2 {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					panics <- v
				}
			}()
			results <- b.write("f", settings.Update{}, run).Err
		})
	}
	waitQueued(&b, "f", 2)
	close(release)
	wg.Wait()
	if len(panics) != 1 || len(results) != 1 {
		t.Fatalf("%d panics, %d results: the batch's leader panics, its other member is answered", len(panics), len(results))
	}
	if err := <-results; errcode.Of(err) != core.CodeInternal {
		t.Fatalf("the other member of the batch got %v", err)
	}
	if r := b.write("f", settings.Update{}, run); r.Err != nil {
		t.Fatalf("after the panic: %v", r.Err)
	}
}

// waitQueued returns once n writes of key wait behind the one under way.
func waitQueued(b *writeBatcher, key string, n int) {
	for {
		b.mu.Lock()
		q := len(b.queues[key].waiting)
		b.mu.Unlock()
		if q == n {
			return
		}
		runtime.Gosched()
	}
}
