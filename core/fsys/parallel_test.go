package fsys

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

func TestParallelRunsEachOnceAndReportsTheFirstError(t *testing.T) {
	for _, n := range []int{0, 1, 3, 100} {
		var calls atomic.Int64
		seen := make([]atomic.Int32, n)
		err := Parallel(n, func(i int) error {
			calls.Add(1)
			seen[i].Add(1)
			if i%7 == 5 {
				return fmt.Errorf("item %d", i)
			}
			return nil
		})
		if int(calls.Load()) != n {
			t.Fatalf("n=%d: %d calls", n, calls.Load())
		}
		for i := range seen {
			if seen[i].Load() != 1 {
				t.Fatalf("n=%d: item %d ran %d times", n, i, seen[i].Load())
			}
		}
		want := error(nil)
		if n > 5 {
			want = errors.New("item 5")
		}
		if fmt.Sprint(err) != fmt.Sprint(want) {
			t.Fatalf("n=%d: error %v, want %v", n, err, want)
		}
	}
}
