package objcopy

import (
	"math"
	"reflect"
	"testing"
	"time"
)

type node struct {
	V    int
	Next *node
}

// chain returns n1 → n2 → … → nN.
func chain(n int) []*node {
	nodes := make([]*node, n)
	for i := n - 1; i >= 0; i-- {
		nodes[i] = &node{V: i + 1}
		if i+1 < n {
			nodes[i].Next = nodes[i+1]
		}
	}
	return nodes
}

// copiedLevels counts how many nodes along the copy's chain are new.
func copiedLevels(orig []*node, cp *node) int {
	n := 0
	for i, c := 0, cp; c != nil; i, c = i+1, c.Next {
		if c != orig[i] {
			n++
		}
	}
	return n
}

func TestLevelsFromPointerRoot(t *testing.T) {
	// The root is level 1; a node reached through k pointers is level k+1
	// and is copied while its level ≤ maxLevel+1.
	tests := []struct {
		recursive bool
		maxLevel  int
		copied    int
	}{
		{true, 0, 1},
		{true, 1, 2},
		{true, 2, 3},
		{true, 5, 6},
		{true, 10, 7},
		{true, -3, 1}, // negative counts as 0
		{false, 0, 1},
		{false, 10, 1}, // shallow: the root is new, what it points to is shared
	}
	for _, tt := range tests {
		orig := chain(7)
		cp, err := Copy(orig[0], tt.recursive, tt.maxLevel)
		if err != nil {
			t.Fatal(err)
		}
		if got := copiedLevels(orig, cp); got != tt.copied {
			t.Errorf("Copy(recursive=%v, maxLevel=%d) copied %d levels, want %d", tt.recursive, tt.maxLevel, got, tt.copied)
		}
		if !reflect.DeepEqual(cp, orig[0]) {
			t.Errorf("copy differs from original")
		}
	}
}

func TestLevelsFromValueRoot(t *testing.T) {
	orig := chain(4)
	cp, err := Copy(*orig[0], true, 1) // the value is level 1, *Next level 2
	if err != nil {
		t.Fatal(err)
	}
	if cp.Next == orig[1] || cp.Next.Next != orig[2] {
		t.Fatalf("value root: level 2 must be copied and level 3 shared")
	}
}

type withMaps struct {
	M map[string]*node
	S []*node
	A [2]*node
	I any
}

func TestMapsAndSlicesDoNotCountAsLevels(t *testing.T) {
	n := chain(3)
	m := chain(3)
	s := chain(3)
	o := chain(3)
	orig := &withMaps{M: map[string]*node{"x": n[0]}, S: []*node{s[0]}, A: [2]*node{nil, o[0]}, I: m[0]}
	cp, err := Copy(orig, true, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cp, orig) {
		t.Fatal("copy differs")
	}
	for name, pair := range map[string][2]*node{
		"map": {cp.M["x"], n[0]}, "slice": {cp.S[0], s[0]}, "array": {cp.A[1], o[0]}, "interface": {cp.I.(*node), m[0]},
	} {
		got, first := pair[0], pair[1]
		if got == first || got.Next != first.Next {
			t.Errorf("%s: level 2 must be copied and level 3 shared", name)
		}
	}
	if reflect.ValueOf(cp.M).UnsafePointer() == reflect.ValueOf(orig.M).UnsafePointer() {
		t.Error("map shared")
	}
	if &cp.S[0] == &orig.S[0] {
		t.Error("slice shared")
	}
}

type inner struct{ n int }

type hidden struct {
	p    *inner
	m    map[string]int
	s    []int
	deep *hidden
	in   struct{ q *inner }
}

func TestUnexportedFields(t *testing.T) {
	orig := &hidden{
		p:    &inner{1},
		m:    map[string]int{"a": 1},
		s:    []int{1, 2},
		deep: &hidden{p: &inner{2}},
	}
	orig.in.q = &inner{3}
	cp, err := Copy(orig, true, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cp, orig) {
		t.Fatal("data lost")
	}
	if cp.p == orig.p || cp.in.q == orig.in.q || cp.deep == orig.deep {
		t.Error("unexported pointers within the limit are shared")
	}
	if cp.deep.p != orig.deep.p {
		t.Error("unexported pointer beyond the limit was copied")
	}
	cp.m["a"] = 2
	cp.s[0] = 9
	if orig.m["a"] != 1 || orig.s[0] != 1 {
		t.Error("unexported map or slice shared")
	}
}

func TestShallow(t *testing.T) {
	leaf := &inner{1}
	orig := hidden{p: leaf, m: map[string]int{"a": 1}, s: []int{1}}
	cp, err := Copy(orig, false, DefaultMaxLevel)
	if err != nil {
		t.Fatal(err)
	}
	if cp.p != leaf {
		t.Error("shallow copy copied a pointed-to value")
	}
	cp.m["a"] = 2
	cp.s[0] = 2
	if orig.m["a"] != 1 || orig.s[0] != 1 {
		t.Error("shallow copy shares a map or slice")
	}
}

func TestCycles(t *testing.T) {
	a := &node{V: 1}
	b := &node{V: 2, Next: a}
	a.Next = b
	for _, level := range []int{0, 1, 2, 10} {
		cp, err := Copy(a, true, level)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(cp, a) {
			t.Fatalf("level %d: copy differs", level)
		}
		if cp == a {
			t.Fatalf("level %d: root shared", level)
		}
		if level >= 1 && cp.Next.Next != cp {
			t.Errorf("level %d: cycle not preserved in the copy", level)
		}
		if level == 0 && cp.Next != b {
			t.Errorf("level 0: the second node must be shared")
		}
	}
}

func TestSelfContainingMapAndSlice(t *testing.T) {
	m := map[string]any{"v": 1}
	m["self"] = m
	cm, err := Copy(m, true, DefaultMaxLevel)
	if err != nil {
		t.Fatal(err)
	}
	ptr := func(v any) uintptr { return reflect.ValueOf(v).Pointer() }
	if ptr(cm) == ptr(m) || ptr(cm["self"]) != ptr(cm) {
		t.Error("map cycle not rebuilt in the copy")
	}

	s := []any{1, nil}
	s[1] = s
	cs, err := Copy(s, true, DefaultMaxLevel)
	if err != nil {
		t.Fatal(err)
	}
	inner := cs[1].([]any)
	if &cs[0] == &s[0] || &inner[0] != &cs[0] {
		t.Error("slice cycle not rebuilt in the copy")
	}
}

type twoPaths struct {
	Deep    *struct{ X *inner } // X is level 3 this way
	Shallow *inner              // and level 2 this way
	Again   *inner
}

func TestSharedReferences(t *testing.T) {
	x := &inner{7}
	orig := twoPaths{Deep: &struct{ X *inner }{x}, Shallow: x, Again: x}
	cp, err := Copy(orig, true, 1)
	if err != nil {
		t.Fatal(err)
	}
	if cp.Shallow == x {
		t.Fatal("x is within the limit by its shallowest path and must be copied")
	}
	if cp.Again != cp.Shallow || cp.Deep.X != cp.Shallow {
		t.Error("three paths to one value must lead to one copy")
	}
}

func TestSubSlicesShareOneArray(t *testing.T) {
	base := make([]int, 3, 5)
	orig := struct{ A, B []int }{base, base[:2]}
	cp, err := Copy(orig, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	if &cp.A[0] == &base[0] || &cp.A[0] != &cp.B[0] {
		t.Error("s and s[:n] must share one new array")
	}
	if cap(cp.A) != 5 || len(cp.B) != 2 || cap(cp.B) != 5 {
		t.Errorf("len/cap not kept: %d/%d %d/%d", len(cp.A), cap(cp.A), len(cp.B), cap(cp.B))
	}
}

func TestBeyondLengthIsCopied(t *testing.T) {
	s := []int{1, 2, 3}[:1]
	cp, err := Copy(s, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := cp[:3]; got[1] != 2 || got[2] != 3 {
		t.Errorf("elements past len lost: %v", got)
	}
}

func TestSharedKinds(t *testing.T) {
	ch := make(chan int)
	called := false
	fn := func() { called = true }
	loc := time.FixedZone("X", 3600)
	when := time.Date(2024, 1, 2, 3, 4, 5, 6, loc)
	type all struct {
		F func()
		C chan int
		T time.Time
		P *time.Time
	}
	orig := &all{F: fn, C: ch, T: when, P: &when}
	cp, err := Copy(orig, true, DefaultMaxLevel)
	if err != nil {
		t.Fatal(err)
	}
	cp.F()
	if !called || cp.C != ch {
		t.Error("functions and channels must be shared")
	}
	if cp.T != when || cp.T.Location() != loc {
		t.Error("time.Time must be a plain value with its location shared")
	}
	if cp.P == orig.P || *cp.P != when || cp.P.Location() != loc {
		t.Error("*time.Time is copied as a pointer to a plain time value")
	}
}

func TestNilAndScalars(t *testing.T) {
	var np *node
	if cp, err := Copy(np, true, 1); cp != nil || err != nil {
		t.Errorf("Copy(nil) = %v, %v", cp, err)
	}
	var m map[string]int
	if cp, err := Copy(m, true, 1); cp != nil || err != nil {
		t.Errorf("Copy(nil map) = %v, %v", cp, err)
	}
	var s []int
	if cp, err := Copy(s, true, 1); cp != nil || err != nil {
		t.Errorf("Copy(nil slice) = %v, %v", cp, err)
	}
	if cp, err := Copy([]int{}, true, 1); cp == nil || len(cp) != 0 || err != nil {
		t.Errorf("Copy(empty slice) = %#v, %v", cp, err)
	}
	var a any
	if cp, err := Copy(a, true, 1); cp != nil || err != nil {
		t.Errorf("Copy(nil any) = %v, %v", cp, err)
	}
	if cp, err := Copy(42, true, 1); cp != 42 || err != nil {
		t.Errorf("Copy(42) = %v, %v", cp, err)
	}
	if cp, err := Copy("s", false, 0); cp != "s" || err != nil {
		t.Errorf("Copy(s) = %v, %v", cp, err)
	}
	if cp, err := Copy(any(1.5), true, 1); cp != 1.5 || err != nil {
		t.Errorf("Copy(any(1.5)) = %v, %v", cp, err)
	}
}

func TestInterfaceRootHoldingPointer(t *testing.T) {
	orig := chain(2)
	cp, err := Copy[any](orig[0], false, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := cp.(*node)
	if n == orig[0] || n.Next != orig[1] {
		t.Error("an interface holding a pointer: the pointee is the root")
	}
}

type l1 struct {
	M map[string]int
	N string
}

type l2 struct {
	S []int
	C *l1
}

type l3 struct {
	A int
	B *l2
}

func threeLevels() *l3 {
	return &l3{A: 1, B: &l2{S: []int{1, 2, 3}, C: &l1{M: map[string]int{"a": 1, "b": 2}, N: "n"}}}
}

func BenchmarkCopy3Level(b *testing.B) {
	v := threeLevels()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Copy(v, true, DefaultMaxLevel); err != nil {
			b.Fatal(err)
		}
	}
}

func TestHugeMaxLevel(t *testing.T) {
	orig := chain(3)
	cp, err := Copy(orig[0], true, math.MaxInt)
	if err != nil || copiedLevels(orig, cp) != 3 {
		t.Fatalf("Copy(maxLevel=MaxInt) copied %d levels, %v", copiedLevels(orig, cp), err)
	}
}
