package lazy

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestValueMadeOnce(t *testing.T) {
	var made atomic.Int32
	v := Value[*int]{Make: func() *int { made.Add(1); n := 7; return &n }}
	var wg sync.WaitGroup
	got := make([]*int, 16)
	for i := range got {
		wg.Go(func() { got[i] = v.Get() })
	}
	wg.Wait()
	if made.Load() != 1 {
		t.Errorf("made %d times, want once", made.Load())
	}
	for _, p := range got {
		if p != got[0] || *p != 7 {
			t.Fatalf("Get gave %v and %v", p, got[0])
		}
	}
}

func TestRegexp(t *testing.T) {
	r := Regexp{Expr: `^a+$`}
	if !r.Get().MatchString("aaa") || r.Get().MatchString("b") || r.Get() != r.Get() {
		t.Error("the expression is not compiled once and used as written")
	}
}
