package apply

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentkit/charter/core/coretest"
	"github.com/agentkit/charter/core/profile"
	"github.com/agentkit/charter/core/settings"
)

// bigFile is about size bytes of prose with an old charter block in the
// middle, so that text lies on both sides of it.
func bigFile(size int) []byte {
	var b bytes.Buffer
	line := "Some instruction the user wrote by hand, kept byte for byte.\n"
	for b.Len() < size/2 {
		b.WriteString(line)
	}
	b.WriteString(BeginMarker + "\nold block\n" + EndMarker + "\n")
	for b.Len() < size {
		b.WriteString("\tanother line\r\n")
	}
	return b.Bytes()
}

// apply on a 20 MB file replaces the block and keeps every byte around it,
// whether the plan keeps the file (for a diff) or not (RunOnly).
func TestApplyLargeFileKeepsText(t *testing.T) {
	for _, runOnly := range []bool{false, true} {
		m := newMachine(t)
		data := bigFile(20 << 20)
		m.write(t, ".claude/CLAUDE.md", string(data))
		req := Request{Agents: []string{"claude"}, RunOnly: runOnly}
		ts, err := PlanRequest(context.Background(), m.sys, m.snap, req)
		if err != nil {
			t.Fatal(err)
		}
		if ts[0].Current() || ts[0].Missing() || ts[0].Old != nil || ts[0].New != nil {
			t.Fatalf("runOnly %v: plan current %v, missing %v, kept the file %v", runOnly, ts[0].Current(), ts[0].Missing(), ts[0].Old != nil)
		}
		if !runOnly { // the window's diff is the whole file's
			next, err := splice(m.path(".claude/CLAUDE.md"), data, Render(m.snap, Library{}))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := Status(ts)[0].Diff, Diff(m.path(".claude/CLAUDE.md"), data, next); got != want || got == "" {
				t.Fatalf("diff from the window:\n%s\nwant\n%s", got, want)
			}
		}
		if rs, err := Run(context.Background(), m.sys, ts, false); err != nil || rs[0].State != StateWritten {
			t.Fatalf("runOnly %v: %+v %v", runOnly, rs, err)
		}
		got, err := os.ReadFile(m.path(".claude/CLAUDE.md"))
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.Index(data, []byte(BeginMarker))
		j := bytes.Index(data, []byte(EndMarker)) + len(EndMarker) + 1
		block := Render(m.snap, Library{})
		if !bytes.HasPrefix(got, data[:i]) || !bytes.HasSuffix(got, data[j:]) ||
			!bytes.Equal(got[i:len(got)-(len(data)-j)], block) {
			t.Fatalf("runOnly %v: the text around the block changed (len %d, was %d)", runOnly, len(got), len(data))
		}
		// A second apply finds it current and writes nothing.
		ts, err = PlanRequest(context.Background(), m.sys, m.snap, req)
		if err != nil {
			t.Fatal(err)
		}
		if !runOnly && !ts[0].Current() { // a run-only plan leaves it to Run
			t.Fatalf("runOnly %v: the second plan finds the file outdated", runOnly)
		}
		before, err := os.Stat(m.path(".claude/CLAUDE.md"))
		if err != nil {
			t.Fatal(err)
		}
		if rs, err := Run(context.Background(), m.sys, ts, false); err != nil || rs[0].State != StateCurrent {
			t.Fatalf("runOnly %v: second run: %+v %v", runOnly, rs, err)
		}
		if after, err := os.Stat(m.path(".claude/CLAUDE.md")); err != nil || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
			t.Fatalf("runOnly %v: a current file was written again (%v)", runOnly, err)
		}
	}
}

// A run-only plan that found the file outdated still sees, under the lock,
// a file someone brought up to date since, and one someone changed again.
func TestRunOnlyRereadsUnderLock(t *testing.T) {
	m := newMachine(t)
	m.write(t, ".claude/CLAUDE.md", "mine\n")
	req := Request{Agents: []string{"claude"}, RunOnly: true}
	ts, err := PlanRequest(context.Background(), m.sys, m.snap, req)
	if err != nil {
		t.Fatal(err)
	}
	current := "mine, edited\n\n" + string(Render(m.snap, Library{}))
	m.write(t, ".claude/CLAUDE.md", current)
	rs, err := Run(context.Background(), m.sys, ts[:1], false)
	if err != nil || rs[0].State != StateCurrent {
		t.Fatalf("%+v %v", rs, err)
	}
	ts, err = PlanRequest(context.Background(), m.sys, m.snap, req)
	if err != nil {
		t.Fatal(err)
	}
	m.write(t, ".claude/CLAUDE.md", "mine, again\n"+BeginMarker+"\nstale\n"+EndMarker+"\ntail\n")
	if rs, err := Run(context.Background(), m.sys, ts[:1], false); err != nil || rs[0].State != StateWritten {
		t.Fatalf("%+v %v", rs, err)
	}
	got, _ := os.ReadFile(m.path(".claude/CLAUDE.md"))
	if want := "mine, again\n" + string(Render(m.snap, Library{})) + "tail\n"; string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// BenchmarkApplyLarge is Plan and Run on a 20 MB CLAUDE.md whose block
// changes every time. alloc-x/op is what one apply allocates and peak-x the
// largest heap seen while it runs, both in sizes of the file.
func BenchmarkApplyLarge(b *testing.B) {
	m := coretest.New(b)
	home, sys := m.Home, m.Sys
	sc, err := profile.ResolveScope(sys, nil)
	if err != nil {
		b.Fatal(err)
	}
	snap, err := settings.New(sys, sc).Read()
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(home, ".claude", "CLAUDE.md")
	data := bigFile(20 << 20)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // samples the live heap
		defer close(done)
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
		}
	}()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		snap.Values["commands.suggestions.max_options"] = int64(i % 21) // a new block every run
		ts, err := PlanRequest(context.Background(), sys, snap, Request{Agents: []string{"claude"}, RunOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Run(context.Background(), sys, ts, false); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	close(stop)
	<-done
	size := float64(len(data))
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/size, "alloc-x/op")
	b.ReportMetric(float64(peak.Load()-min(peak.Load(), before.HeapAlloc))/size, "peak-x")
}
