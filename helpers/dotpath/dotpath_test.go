package dotpath

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestSegments(t *testing.T) {
	tests := []struct {
		path string
		want []string
		err  string
	}{
		{"", []string{}, ""},
		{"a", []string{"a"}, ""},
		{"a.b.c", []string{"a", "b", "c"}, ""},
		{"items.0.name", []string{"items", "0", "name"}, ""}, // numeric segments stay strings
		{"*", []string{"*"}, ""},
		{"a.*.b", []string{"a", "*", "b"}, ""},
		{" a . b ", []string{" a ", " b "}, ""}, // no trimming
		{`a\.b`, []string{`a\`, "b"}, ""},       // no escaping
		{".a", nil, `invalid dot-path syntax: leading dot in ".a"`},
		{"a.", nil, `invalid dot-path syntax: trailing dot in "a."`},
		{"a..b", nil, `invalid dot-path syntax: double dot in "a..b"`},
		{".", nil, `invalid dot-path syntax: leading dot in "."`},
		{"..", nil, `invalid dot-path syntax: leading dot in ".."`},
		{".a.", nil, `invalid dot-path syntax: leading dot in ".a."`},
		{"a..", nil, `invalid dot-path syntax: trailing dot in "a.."`},
		{"a..b.", nil, `invalid dot-path syntax: trailing dot in "a..b."`},
		{"a\n..b", nil, `invalid dot-path syntax: double dot in "a\n..b"`}, // %q quoting
	}
	for _, tt := range tests {
		// Twice: the second call is served from the cache.
		for range 2 {
			got, err := Segments(tt.path)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err || got != nil {
					t.Errorf("Segments(%q) = %q, %v; want error %q", tt.path, got, err, tt.err)
				}
				continue
			}
			if err != nil || !slices.Equal(got, tt.want) || got == nil {
				t.Errorf("Segments(%q) = %#v, %v; want %#v", tt.path, got, err, tt.want)
			}
		}
	}
}

func TestSegmentsReturnsACopy(t *testing.T) {
	got, _ := Segments("copy.test")
	got[0] = "changed"
	again, _ := Segments("copy.test")
	if again[0] != "copy" {
		t.Fatalf("a caller's change leaked into the cache: %q", again)
	}
	shared, _ := Lookup("copy.test")
	if &shared[0] == &again[0] {
		t.Fatal("Segments returned the cache's own slice")
	}
}

func TestLookupIsCached(t *testing.T) {
	a, _ := Lookup("lookup.cached")
	b, _ := Lookup("lookup.cached")
	if &a[0] != &b[0] {
		t.Fatal("second Lookup did not come from the cache")
	}
	if n := testing.AllocsPerRun(100, func() { Lookup("lookup.cached") }); n != 0 {
		t.Fatalf("cached Lookup allocates %v times", n)
	}
}

func TestLongPathsAreNotCached(t *testing.T) {
	long := strings.Repeat("x.", maxCachedLen) + "y"
	got, err := Lookup(long)
	if err != nil || len(got) != maxCachedLen+1 {
		t.Fatalf("Lookup(long) = %d segments, %v", len(got), err)
	}
	if _, ok := cache.m.Load(long); ok {
		t.Fatal("a path longer than maxCachedLen was cached")
	}
}

func TestErrorsAreNotCached(t *testing.T) {
	Lookup("bad..path")
	if _, ok := cache.m.Load("bad..path"); ok {
		t.Fatal("a malformed path was cached")
	}
}

func TestCacheIsBounded(t *testing.T) {
	for i := range 3 * cacheCap {
		if _, err := Lookup(fmt.Sprintf("bound.%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	cache.m.Range(func(any, any) bool { n++; return true })
	if n > cacheCap {
		t.Fatalf("cache holds %d paths, cap is %d", n, cacheCap)
	}
	// Still correct after evictions.
	if got, _ := Segments("bound.1"); !slices.Equal(got, []string{"bound", "1"}) {
		t.Fatalf("Segments after eviction = %q", got)
	}
}

// TestConcurrent runs readers and writers of the cache at once, including
// clears; run it with -race.
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2 * cacheCap {
				p := fmt.Sprintf("race.%d.%d", g%2, i%(cacheCap/2+g))
				got, err := Lookup(p)
				if err != nil || len(got) != 3 || got[0] != "race" {
					t.Errorf("Lookup(%q) = %q, %v", p, got, err)
					return
				}
				if s, _ := Segments("shared.path"); len(s) != 2 {
					t.Errorf("Segments = %q", s)
					return
				}
				if w, _ := ContainsWildcard("a.*"); !w {
					t.Error("ContainsWildcard lost the wildcard")
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestBuildPrefix(t *testing.T) {
	tests := []struct {
		prefix  string
		segment any
		want    string
	}{
		{"", "a", "a"},
		{"", 0, "0"},
		{"", "", ""},
		{"a", "b", "a.b"},
		{"a.b", "c", "a.b.c"},
		{"items", 3, "items.3"},
		{"items", int8(-2), "items.-2"},
		{"items", int16(300), "items.300"},
		{"items", int32(7), "items.7"},
		{"items", int64(-9223372036854775808), "items.-9223372036854775808"},
		{"items", uint(1), "items.1"},
		{"items", uint8(255), "items.255"},
		{"items", uint16(2), "items.2"},
		{"items", uint32(4), "items.4"},
		{"items", uint64(18446744073709551615), "items.18446744073709551615"},
		{"a", "*", "a.*"},
		{"a", 1.5, "a.1.5"}, // not an integer or string: fmt's %v
	}
	for _, tt := range tests {
		if got := BuildPrefix(tt.prefix, tt.segment); got != tt.want {
			t.Errorf("BuildPrefix(%q, %#v) = %q, want %q", tt.prefix, tt.segment, got, tt.want)
		}
	}
}

func TestIsWildcard(t *testing.T) {
	tests := map[string]bool{"*": true, "**": false, "a*": false, " *": false, "": false, "a": false}
	for seg, want := range tests {
		if got := IsWildcard(seg); got != want {
			t.Errorf("IsWildcard(%q) = %v, want %v", seg, got, want)
		}
	}
}

func TestContainsWildcard(t *testing.T) {
	tests := []struct {
		path string
		want bool
		err  string
	}{
		{"a.*.b", true, ""},
		{"*", true, ""},
		{"a.*", true, ""},
		{"a.b", false, ""},
		{"", false, ""},
		{"a*b", false, ""},  // differs: the reference finds '*' anywhere
		{"a.b*", false, ""}, // differs, likewise
		{"a..*", false, `invalid dot-path syntax: double dot in "a..*"`},
		{"*.", false, `invalid dot-path syntax: trailing dot in "*."`},
		{".*", false, `invalid dot-path syntax: leading dot in ".*"`},
	}
	for _, tt := range tests {
		got, err := ContainsWildcard(tt.path)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tt.want || gotErr != tt.err {
			t.Errorf("ContainsWildcard(%q) = %v, %q; want %v, %q", tt.path, got, gotErr, tt.want, tt.err)
		}
	}
}

func FuzzSegments(f *testing.F) {
	for _, s := range []string{"", "a", "a.b.c", ".a", "a.", "a..b", ".", "..", "*", "a.*.0", " . ", "é.ß", "a\x00.b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		got, err := Segments(path)
		if err != nil {
			bad := strings.HasPrefix(path, ".") || strings.HasSuffix(path, ".") || strings.Contains(path, "..")
			if !bad || !strings.HasPrefix(err.Error(), "invalid dot-path syntax: ") {
				t.Fatalf("Segments(%q) error %v", path, err)
			}
			if _, err2 := ContainsWildcard(path); err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("ContainsWildcard(%q) error %v, Segments error %v", path, err2, err)
			}
			return
		}
		if j := strings.Join(got, "."); j != path {
			t.Fatalf("Join(Segments(%q)) = %q", path, j)
		}
		for _, s := range got {
			if s == "" || strings.Contains(s, ".") {
				t.Fatalf("Segments(%q) has segment %q", path, s)
			}
		}
		shared, _ := Lookup(path)
		if !slices.Equal(shared, got) {
			t.Fatalf("Lookup(%q) = %q, Segments = %q", path, shared, got)
		}
	})
}

func BenchmarkLookupCached(b *testing.B) {
	Lookup("a.b.c")
	b.ReportAllocs()
	for b.Loop() {
		Lookup("a.b.c")
	}
}

func BenchmarkSegmentsCached(b *testing.B) {
	Segments("a.b.c")
	b.ReportAllocs()
	for b.Loop() {
		Segments("a.b.c")
	}
}

// BenchmarkSegmentsUncached measures the parse alone.
func BenchmarkSegmentsUncached(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		parse("a.b.c")
	}
}

// BenchmarkSegmentsMiss cycles through more paths than the cache holds, so
// every call parses, inserts and now and then clears.
func BenchmarkSegmentsMiss(b *testing.B) {
	paths := make([]string, 2*cacheCap)
	for i := range paths {
		paths[i] = fmt.Sprintf("miss.%d.c", i)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		Segments(paths[i%len(paths)])
		i++
	}
}
