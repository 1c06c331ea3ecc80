package objcopy

import (
	"fmt"
	"math"
	"reflect"
	"time"
	"unsafe"
)

// DefaultMaxLevel is the reference's default depth.
const DefaultMaxLevel = 10

// Copy returns a copy of v; see the package documentation for what is copied
// and what is shared. The error is for values the walk cannot handle; every
// documented case returns nil.
func Copy[T any](v T, recursive bool, maxLevel int) (out T, err error) {
	if !recursive || maxLevel < 0 {
		maxLevel = 0
	}
	src := reflect.ValueOf(&v).Elem()
	c := copier{limit: maxLevel, needsMemo: map[reflect.Type]bool{}}
	if c.limit < math.MaxInt {
		c.limit++ // values at level maxLevel+1 are still copied
	}
	if !c.needs(src.Type()) {
		return v, nil // nothing reachable from v can be shared
	}
	defer func() {
		if r := recover(); r != nil {
			var zero T
			out, err = zero, fmt.Errorf("objcopy: copy %T: %v", v, r)
		}
	}()
	dst := reflect.New(src.Type()).Elem()
	dst.Set(src)
	// The root's contents are level 1. When the root is a pointer, the
	// pointer itself sits at level 0 so that its target is level 1.
	depth := 1
	if k := src.Kind(); k == reflect.Pointer ||
		k == reflect.Interface && !src.IsNil() && src.Elem().Kind() == reflect.Pointer {
		depth = 0
	}
	c.fix(dst, depth)
	// Breadth first, so each pointer is first met on its shallowest path.
	for i := 0; i < len(c.queue); i++ {
		c.fix(c.queue[i].v, c.queue[i].depth)
	}
	// Through a pointer, so a nil interface T does not fail the assertion.
	return *dst.Addr().Interface().(*T), nil
}

type key struct {
	p unsafe.Pointer
	t reflect.Type
}

type work struct {
	v     reflect.Value // the new pointee, filled with a shallow copy
	depth int
}

// copier holds one Copy call's state; nothing outlives the call.
type copier struct {
	limit     int
	ptrs      map[key]reflect.Value // original pointer → its copy, or itself when shared
	maps      map[key]reflect.Value
	slices    map[key]reflect.Value // by first element; holds the full-capacity copy
	queue     []work
	needsMemo map[reflect.Type]bool
}

// needs reports whether values of t can reach anything the copy must not
// share: a pointer, map, slice or interface.
func (c *copier) needs(t reflect.Type) bool {
	if n, ok := c.needsMemo[t]; ok {
		return n
	}
	var n bool
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		n = true
	case reflect.Array:
		n = t.Len() > 0 && c.needs(t.Elem())
	case reflect.Struct:
		if t == reflect.TypeFor[time.Time]() || t == reflect.TypeFor[reflect.Value]() {
			break // plain values by design; see the package documentation
		}
		for i := range t.NumField() {
			if c.needs(t.Field(i).Type) {
				n = true
				break
			}
		}
	}
	c.needsMemo[t] = n
	return n
}

// fix replaces, in place, everything in v that the copy must not share with
// the original. v is settable and holds a shallow copy of original data;
// depth is the level of the value v belongs to.
func (c *copier) fix(v reflect.Value, depth int) {
	if !c.needs(v.Type()) {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			v.Set(c.pointer(v, depth+1))
		}
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		if !c.needs(e.Type()) {
			return
		}
		tmp := reflect.New(e.Type()).Elem()
		tmp.Set(e)
		c.fix(tmp, depth)
		v.Set(tmp)
	case reflect.Map:
		if !v.IsNil() {
			v.Set(c.mapCopy(v, depth))
		}
	case reflect.Slice:
		if !v.IsNil() {
			v.Set(c.sliceCopy(v, depth))
		}
	case reflect.Array:
		for i := range v.Len() {
			c.fix(v.Index(i), depth)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Field(i)
			if !c.needs(f.Type()) {
				continue
			}
			if !f.CanSet() {
				// An unexported field: write through an unsafe view of
				// memory this copier allocated, so no data is lost.
				f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
			}
			c.fix(f, depth)
		}
	}
}

// pointer returns the copy of p, whose target is at level depth.
func (c *copier) pointer(p reflect.Value, depth int) reflect.Value {
	k := key{p.UnsafePointer(), p.Type()}
	if n, ok := c.ptrs[k]; ok {
		return n
	}
	if c.ptrs == nil {
		c.ptrs = map[key]reflect.Value{}
	}
	if depth > c.limit {
		// Detach from p's slot, which may be a reused temporary.
		p = reflect.ValueOf(p.Interface())
		c.ptrs[k] = p
		return p
	}
	n := reflect.New(p.Type().Elem())
	n.Elem().Set(p.Elem())
	c.ptrs[k] = n
	c.queue = append(c.queue, work{n.Elem(), depth})
	return n
}

func (c *copier) mapCopy(m reflect.Value, depth int) reflect.Value {
	k := key{m.UnsafePointer(), m.Type()}
	if n, ok := c.maps[k]; ok {
		return n
	}
	if c.maps == nil {
		c.maps = map[key]reflect.Value{}
	}
	n := reflect.MakeMapWithSize(m.Type(), m.Len())
	c.maps[k] = n // before the walk, so a map that contains itself terminates
	et := m.Type().Elem()
	var tmp reflect.Value
	if c.needs(et) {
		tmp = reflect.New(et).Elem()
	}
	for it := m.MapRange(); it.Next(); {
		val := it.Value()
		if tmp.IsValid() {
			tmp.Set(val)
			c.fix(tmp, depth)
			val = tmp
		}
		n.SetMapIndex(it.Key(), val)
	}
	return n
}

func (c *copier) sliceCopy(s reflect.Value, depth int) reflect.Value {
	k := key{s.UnsafePointer(), s.Type()}
	if n, ok := c.slices[k]; ok && s.Cap() <= n.Cap() {
		return n.Slice3(0, s.Len(), s.Cap())
	}
	if c.slices == nil {
		c.slices = map[key]reflect.Value{}
	}
	// Copy the whole capacity: elements past len are data too.
	n := reflect.MakeSlice(s.Type(), s.Cap(), s.Cap())
	reflect.Copy(n, s.Slice3(0, s.Cap(), s.Cap()))
	c.slices[k] = n
	if c.needs(s.Type().Elem()) {
		for i := range n.Len() {
			c.fix(n.Index(i), depth)
		}
	}
	return n.Slice3(0, s.Len(), s.Cap())
}
