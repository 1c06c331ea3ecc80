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

func TestPipelineRunsEachPreparedAndStopsAtAPrepareError(t *testing.T) {
	var prepared, ran atomic.Int64
	ready := make([]atomic.Bool, 50)
	err := Pipeline(50, func(k int) error {
		prepared.Add(1)
		ready[k].Store(true)
		return nil
	}, func(k int) error {
		if !ready[k].Load() {
			t.Errorf("run %d before its prepare", k)
		}
		ran.Add(1)
		if k == 30 || k == 40 {
			return fmt.Errorf("run %d", k)
		}
		return nil
	})
	if prepared.Load() != 50 || ran.Load() != 50 || fmt.Sprint(err) != "run 30" {
		t.Fatalf("prepared %d, ran %d, error %v", prepared.Load(), ran.Load(), err)
	}
	prepared.Store(0)
	ran.Store(0)
	err = Pipeline(50, func(k int) error {
		prepared.Add(1)
		if k == 10 {
			return errors.New("prepare 10")
		}
		return nil
	}, func(k int) error {
		if k >= 10 {
			t.Errorf("run %d after the prepare error", k)
		}
		ran.Add(1)
		return nil
	})
	if prepared.Load() != 11 || ran.Load() != 10 || fmt.Sprint(err) != "prepare 10" {
		t.Fatalf("prepared %d, ran %d, error %v", prepared.Load(), ran.Load(), err)
	}
}

func TestGroupsKeepOrder(t *testing.T) {
	keys := []string{"a", "b", "a", "c", "b", "a"}
	got := fmt.Sprint(Groups(len(keys), func(i int) string { return keys[i] }))
	if got != "[[0 2 5] [1 4] [3]]" {
		t.Fatalf("groups %s", got)
	}
}
