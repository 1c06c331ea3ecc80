package objcopy

import (
	"reflect"
	"strconv"
	"testing"
	"unsafe"
)

// fnode is a graph node with every kind of edge the copier handles, in
// exported and unexported fields alike.
type fnode struct {
	ID   int
	name string
	Next *fnode
	kids []*fnode
	M    map[string]*fnode
	Any  any
	arr  [1]*fnode
}

// build turns fuzz bytes into a graph of up to 6 nodes, with shared
// pointers, maps and slices and with cycles.
func build(data []byte) []*fnode {
	if len(data) == 0 {
		return []*fnode{{}}
	}
	n := 1 + int(data[0]%6)
	nodes := make([]*fnode, n)
	for i := range nodes {
		nodes[i] = &fnode{ID: i, name: "n" + strconv.Itoa(i)}
	}
	pick := func(b byte) *fnode {
		if int(b)%(n+1) == n {
			return nil
		}
		return nodes[int(b)%(n+1)]
	}
	for k := 1; k+2 < len(data); k += 3 {
		a, b := nodes[int(data[k+1])%n], pick(data[k+2])
		switch data[k] % 8 {
		case 0:
			a.Next = b
		case 1:
			a.kids = append(a.kids, b)
		case 2:
			if a.M == nil {
				a.M = map[string]*fnode{}
			}
			a.M[strconv.Itoa(int(data[k+2]))] = b
		case 3:
			a.Any = b
		case 4:
			if b != nil {
				a.Any = b.kids
			}
		case 5:
			if b != nil {
				a.Any = b.M
			}
		case 6:
			a.arr[0] = b
		case 7:
			if b != nil {
				a.M = b.M
				a.kids = b.kids
			}
		}
	}
	return nodes
}

// checker walks an original and its copy side by side, breadth first, and
// checks the level rule independently of the copier.
type checker struct {
	t      *testing.T
	limit  int
	orig   map[unsafe.Pointer]bool // every node address in the original
	ptrs   map[unsafe.Pointer]unsafe.Pointer
	refs   map[unsafe.Pointer]unsafe.Pointer // maps and slice arrays
	queue  []pair
	shared int
}

type pair struct {
	o, c  reflect.Value
	depth int
}

func (k *checker) walk(o, c reflect.Value, depth int) {
	switch o.Kind() {
	case reflect.Pointer:
		if o.IsNil() {
			return
		}
		op, cp := o.UnsafePointer(), c.UnsafePointer()
		if prev, ok := k.ptrs[op]; ok {
			if prev != cp {
				k.t.Fatalf("one original pointer led to two copies")
			}
			return
		}
		k.ptrs[op] = cp
		if depth+1 > k.limit {
			k.shared++
			if cp != op {
				k.t.Fatalf("level %d is beyond the limit %d but was copied", depth+1, k.limit)
			}
			return
		}
		if k.orig[cp] {
			k.t.Fatalf("level %d is within the limit %d but shares an original node", depth+1, k.limit)
		}
		k.queue = append(k.queue, pair{o.Elem(), c.Elem(), depth + 1})
	case reflect.Interface:
		if !o.IsNil() {
			k.walk(o.Elem(), c.Elem(), depth)
		}
	case reflect.Map, reflect.Slice:
		if o.IsNil() {
			return
		}
		op, cp := o.UnsafePointer(), c.UnsafePointer()
		if prev, ok := k.refs[op]; ok {
			if prev != cp {
				k.t.Fatalf("one original %s led to two copies", o.Kind())
			}
			return
		}
		k.refs[op] = cp
		if o.Kind() == reflect.Map {
			if op == cp {
				k.t.Fatal("map shared within the limit")
			}
			for it := o.MapRange(); it.Next(); {
				k.walk(it.Value(), c.MapIndex(it.Key()), depth)
			}
			return
		}
		if o.Cap() > 0 && op == cp {
			k.t.Fatal("slice array shared within the limit")
		}
		// Elements past len are reachable by reslicing, so they count.
		o, c = o.Slice3(0, o.Cap(), o.Cap()), c.Slice3(0, c.Cap(), c.Cap())
		for i := range o.Len() {
			k.walk(o.Index(i), c.Index(i), depth)
		}
	case reflect.Array:
		for i := range o.Len() {
			k.walk(o.Index(i), c.Index(i), depth)
		}
	case reflect.Struct:
		for i := range o.NumField() {
			k.walk(o.Field(i), c.Field(i), depth)
		}
	}
}

func FuzzCopy(f *testing.F) {
	f.Add([]byte{0}, uint8(10), true, true)
	f.Add([]byte{3, 0, 0, 1, 0, 1, 2, 0, 2, 0}, uint8(1), true, false)          // a cycle
	f.Add([]byte{5, 1, 0, 3, 2, 1, 3, 5, 2, 4, 7, 3, 0}, uint8(2), false, true) // shared maps
	f.Add([]byte{4, 3, 0, 1, 4, 1, 2, 6, 2, 3, 0, 3, 0}, uint8(0), true, true)
	f.Fuzz(func(t *testing.T, data []byte, maxLevel uint8, recursive, viaPointer bool) {
		level := int(maxLevel%8) - 1 // include a negative level
		nodes := build(data)
		var got any
		var err error
		if viaPointer {
			got, err = Copy(nodes[0], recursive, level)
		} else {
			got, err = Copy(*nodes[0], recursive, level)
		}
		if err != nil {
			t.Fatal(err)
		}
		var want any = nodes[0]
		if !viaPointer {
			want = *nodes[0]
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatal("copy is not deeply equal")
		}
		if !reflect.DeepEqual(build(data), nodes) {
			t.Fatal("Copy changed the original")
		}
		limit := max(level, 0) + 1
		if !recursive {
			limit = 1
		}
		k := &checker{t: t, limit: limit, orig: map[unsafe.Pointer]bool{},
			ptrs: map[unsafe.Pointer]unsafe.Pointer{}, refs: map[unsafe.Pointer]unsafe.Pointer{}}
		for _, n := range nodes {
			k.orig[unsafe.Pointer(n)] = true
		}
		ov, cv := reflect.ValueOf(&want).Elem().Elem(), reflect.ValueOf(&got).Elem().Elem()
		depth := 1
		if viaPointer {
			depth = 0
		}
		k.walk(ov, cv, depth)
		for i := 0; i < len(k.queue); i++ {
			k.walk(k.queue[i].o, k.queue[i].c, k.queue[i].depth)
		}
	})
}
