package config

import (
	"reflect"
	"sync"
	"testing"
)

// TestConcurrentConfig mixes every method on one Config; run with -race.
func TestConcurrentConfig(t *testing.T) {
	c := New(sample())
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 300 {
				switch (g + i) % 8 {
				case 0:
					if err := c.Set("a.c.d", i); err != nil {
						t.Error(err)
					}
				case 1:
					c.Get("a.c.d", nil)
					c.Get("servers", nil)
				case 2:
					c.GetInteger("servers.1.ports.0", 0)
					c.GetString("scalar", "")
				case 3:
					c.All()
				case 4:
					c.Reset()
				case 5:
					c.Set("servers.2", map[string]any{"host": "h2"})
					c.Has("servers.2.host")
				case 6:
					c.GetArray("servers", nil)
					c.GetBoolean("false", true)
				case 7:
					if i%50 == 0 {
						c.Initialize(sample())
					}
					c.GetFloat("zero", 1)
				}
			}
		})
	}
	wg.Wait()
}

// TestConcurrentSingleton races Instance, its use and ResetInstance.
func TestConcurrentSingleton(t *testing.T) {
	t.Cleanup(ResetInstance)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 300 {
				c := Instance()
				if c == nil {
					t.Error("Instance returned nil")
					return
				}
				switch (g + i) % 4 {
				case 0:
					c.Set("cache.max_entries", i)
				case 1:
					if got := c.GetString("performance_mode", ""); got != "fast" {
						t.Errorf("performance_mode = %q", got)
					}
				case 2:
					c.Reset()
				case 3:
					if i%30 == 0 {
						ResetInstance()
					}
				}
			}
		})
	}
	wg.Wait()
}

func TestGetAllocatesNothingForScalars(t *testing.T) {
	c := New(sample())
	c.Get("a.c.d", nil) // warm the path cache
	if n := testing.AllocsPerRun(100, func() { c.Get("a.c.d", nil) }); n != 0 {
		t.Errorf("Get allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { c.GetInteger("servers.1.ports.1", 0) }); n != 0 {
		t.Errorf("GetInteger allocates %v times", n)
	}
}

func BenchmarkGet3Level(b *testing.B) {
	c := New(map[string]any{"a": map[string]any{"b": map[string]any{"c": 42}}})
	b.ReportAllocs()
	for b.Loop() {
		if c.Get("a.b.c", nil) != 42 {
			b.Fatal("wrong value")
		}
	}
}

func BenchmarkGet3LevelParallel(b *testing.B) {
	c := New(map[string]any{"a": map[string]any{"b": map[string]any{"c": 42}}})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.Get("a.b.c", nil)
		}
	})
}

func BenchmarkGetInteger3Level(b *testing.B) {
	c := New(map[string]any{"a": map[string]any{"b": map[string]any{"c": 42}}})
	b.ReportAllocs()
	for b.Loop() {
		c.GetInteger("a.b.c", 0)
	}
}

func BenchmarkSet3Level(b *testing.B) {
	c := New(nil)
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Set("a.b.c", 42); err != nil {
			b.Fatal(err)
		}
	}
}

func TestResetAndInitialize(t *testing.T) {
	c := New(map[string]any{"a": map[string]any{"b": 1}, "l": []any{1}})
	c.Set("a.b", 2)
	c.Set("a.new", 3)
	c.Set("l.1", 2)
	c.Reset()
	want := map[string]any{"a": map[string]any{"b": 1}, "l": []any{1}}
	if got := c.All(); !reflect.DeepEqual(got, want) {
		t.Fatalf("after Reset: %#v", got)
	}
	// The snapshot is copied on Reset, so changes after it do not leak in.
	c.Set("a.b", 9)
	c.Reset()
	if got := c.All(); !reflect.DeepEqual(got, want) {
		t.Fatalf("after a second Reset: %#v", got)
	}

	in := map[string]any{"x": map[string]any{"y": 1}}
	c.Initialize(in)
	in["x"].(map[string]any)["y"] = 2
	c.Set("x.y", 3)
	c.Reset()
	if got := c.All(); !reflect.DeepEqual(got, map[string]any{"x": map[string]any{"y": 1}}) {
		t.Fatalf("Initialize did not replace the snapshot with a copy: %#v", got)
	}
	c.Initialize(nil)
	if got := c.All(); got == nil || len(got) != 0 {
		t.Fatalf("Initialize(nil) = %#v", got)
	}
}

func TestZeroConfig(t *testing.T) {
	var c Config
	if c.Get("a", "def") != "def" || c.Has("a") || len(c.All()) != 0 {
		t.Fatal("zero Config is not empty")
	}
	if err := c.Set("a.b", 1); err != nil || c.Get("a.b", nil) != 1 {
		t.Fatalf("Set on a zero Config: %v", err)
	}
	c.Reset()
	if c.Has("a") {
		t.Fatal("Reset of a zero Config kept values")
	}
}

func TestInstance(t *testing.T) {
	ResetInstance()
	t.Cleanup(ResetInstance)
	c := Instance()
	if c != Instance() {
		t.Fatal("Instance is not a singleton")
	}
	want := map[string]any{"cache": map[string]any{"max_entries": 1000}, "performance_mode": "fast"}
	if got := c.All(); !reflect.DeepEqual(got, want) {
		t.Fatalf("defaults = %#v", got)
	}
	if c.GetInteger("cache.max_entries", 0) != 1000 || c.GetString("performance_mode", "") != "fast" {
		t.Fatal("defaults not readable")
	}
	c.Set("cache.max_entries", 5)
	if Instance().GetInteger("cache.max_entries", 0) != 5 {
		t.Fatal("Set not visible through Instance")
	}
	c.Reset()
	if Instance().GetInteger("cache.max_entries", 0) != 1000 {
		t.Fatal("Reset did not restore the defaults")
	}
	c.Set("cache.max_entries", 5)
	ResetInstance()
	if d := Instance(); d == c || d.GetInteger("cache.max_entries", 0) != 1000 {
		t.Fatal("ResetInstance did not start over from the defaults")
	}
}
