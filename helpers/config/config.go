package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentkit/charter/helpers/dotpath"
	"github.com/agentkit/charter/helpers/internal/numlit"
	"github.com/agentkit/charter/helpers/objcopy"
)

// Config is a set of values with a snapshot that Reset restores. The zero
// value is an empty configuration, ready to use.
type Config struct {
	mu       sync.RWMutex
	values   map[string]any
	snapshot map[string]any // never modified, only replaced
}

// instance is the singleton; atomic so Instance needs no lock after the
// first call.
var instance atomic.Pointer[Config]

// defaults are built per call so that no caller can alter them.
func defaults() map[string]any {
	return map[string]any{
		"cache":            map[string]any{"max_entries": 1000},
		"performance_mode": "fast",
	}
}

// Instance returns the shared Config, creating it with the built-in defaults
// {"cache": {"max_entries": 1000}, "performance_mode": "fast"} on first use.
func Instance() *Config {
	for {
		if c := instance.Load(); c != nil {
			return c
		}
		// Losing the race only wastes one Config; everyone gets the winner.
		if c := New(defaults()); instance.CompareAndSwap(nil, c) {
			return c
		}
	}
}

// ResetInstance drops the singleton, so that the next Instance call starts
// again from the defaults. It exists for tests; holders of the old instance
// keep using it.
func ResetInstance() { instance.Store(nil) }

// New returns a Config holding a deep copy of values; that copy is also its
// reset snapshot.
func New(values map[string]any) *Config {
	c := &Config{}
	c.Initialize(values)
	return c
}

// Initialize replaces the values and the snapshot with deep copies of
// values. It reads no files and no environment.
func (c *Config) Initialize(values map[string]any) {
	v, s := clone(values), clone(values)
	c.mu.Lock()
	c.values, c.snapshot = v, s
	c.mu.Unlock()
}

// Reset restores the snapshot taken by New or Initialize.
func (c *Config) Reset() {
	c.mu.Lock()
	c.values = clone(c.snapshot)
	c.mu.Unlock()
}

// All returns a deep copy of every value.
func (c *Config) All() map[string]any {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return clone(c.values)
}

// Get returns the value at key, or def when it is missing or nil. A
// top-level entry named exactly key wins over the dot path, unless it is
// nil. Maps and slices come back as deep copies; false, 0 and "" as stored.
func (c *Config) Get(key string, def any) any {
	c.mu.RLock()
	defer c.mu.RUnlock() // the copy must be made under the lock too
	v, ok := c.lookup(key)
	if !ok {
		return def
	}
	return cloneValue(v)
}

// Has reports whether key holds a non-nil value.
func (c *Config) Has(key string) bool {
	c.mu.RLock()
	_, ok := c.lookup(key)
	c.mu.RUnlock()
	return ok
}

// GetBoolean returns a bool as is; a string is true when it is true, 1, yes
// or on in any case, and false otherwise; a number is true when not zero.
// A missing key, or a value with no scalar meaning, gives def.
func (c *Config) GetBoolean(key string, def bool) bool {
	v, ok := c.scalar(key)
	if !ok {
		return def
	}
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool()
	case reflect.String:
		s := v.String()
		return strings.EqualFold(s, "true") || s == "1" ||
			strings.EqualFold(s, "yes") || strings.EqualFold(s, "on")
	}
	return numlit.NonZero(v)
}

// GetInteger converts numbers (floats truncate toward zero, saturating at the
// int64 bounds), strings by env's lenient prefix rule ("12abc" is 12) and
// bools to 1/0. A missing key, or a value with no scalar meaning, gives def.
func (c *Config) GetInteger(key string, def int64) int64 {
	return scalarAs(c, key, def, numlit.Int)
}

// GetFloat converts numbers, strings by env's lenient prefix rule and bools
// to 1/0. A missing key, or a value with no scalar meaning, gives def.
func (c *Config) GetFloat(key string, def float64) float64 {
	return scalarAs(c, key, def, numlit.Float)
}

// GetString returns strings as is, numbers in their shortest form without an
// exponent (strconv.FormatFloat(v, 'f', -1, 64)) and bools as true/false. A
// missing key, or a value with no scalar meaning, gives def.
func (c *Config) GetString(key string, def string) string {
	return scalarAs(c, key, def, numlit.String)
}

// GetArray returns a slice value as a deep-copied []any, else def.
func (c *Config) GetArray(key string, def []any) []any {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.lookup(key)
	if !ok {
		return def
	}
	if s, ok := v.([]any); ok {
		return mustCopy(s)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice {
		return def
	}
	if rv.IsNil() {
		return nil
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return mustCopy(out)
}

// scalarAs converts the scalar at key, or gives def.
func scalarAs[T any](c *Config, key string, def T, conv func(reflect.Value) T) T {
	v, ok := c.scalar(key)
	if !ok {
		return def
	}
	return conv(v)
}

// scalar looks key up and returns it when it is a bool, string or number.
func (c *Config) scalar(key string) (reflect.Value, bool) {
	c.mu.RLock()
	v, ok := c.lookup(key)
	c.mu.RUnlock()
	if !ok {
		return reflect.Value{}, false
	}
	rv := reflect.ValueOf(v)
	if !numlit.IsScalar(rv.Kind()) {
		return reflect.Value{}, false
	}
	return rv, true
}

// lookup finds key; the caller holds c.mu. It allocates nothing for maps of
// type map[string]any and slices of type []any, which is all that Set
// creates and what decoded JSON or YAML holds.
func (c *Config) lookup(key string) (any, bool) {
	if v, ok := c.values[key]; ok && v != nil {
		return v, true
	}
	// The shared slice from dotpath's cache: read-only, no allocation.
	segs, err := dotpath.Lookup(key)
	if err != nil || len(segs) < 2 {
		return nil, false // one segment is the literal key, already tried
	}
	var cur any = c.values
	for _, seg := range segs {
		var ok bool
		if cur, ok = child(cur, seg); !ok {
			return nil, false
		}
	}
	return cur, cur != nil
}

// child steps from a map into its entry or from a slice into its element.
func child(cur any, seg string) (any, bool) {
	switch t := cur.(type) {
	case map[string]any:
		v, ok := t[seg]
		return v, ok
	case []any:
		i, ok := index(seg)
		if !ok || i >= len(t) {
			return nil, false
		}
		return t[i], true
	case nil:
		return nil, false
	}
	// Other map and slice types (map[string]string, []int...) are read
	// through reflection.
	rv := reflect.ValueOf(cur)
	switch rv.Kind() {
	case reflect.Map:
		kt := rv.Type().Key()
		if kt.Kind() != reflect.String {
			return nil, false
		}
		v := rv.MapIndex(reflect.ValueOf(seg).Convert(kt))
		if !v.IsValid() {
			return nil, false
		}
		return v.Interface(), true
	case reflect.Slice, reflect.Array:
		i, ok := index(seg)
		if !ok || i >= rv.Len() {
			return nil, false
		}
		return rv.Index(i).Interface(), true
	}
	return nil, false
}

// index parses a slice index: "0" or digits without a leading zero, so that
// "01" and "+1" stay ordinary keys.
func index(seg string) (int, bool) {
	if seg == "" || len(seg) > 18 || (seg[0] == '0' && len(seg) > 1) {
		return 0, false
	}
	n := 0
	for i := 0; i < len(seg); i++ {
		d := seg[i] - '0'
		if d > 9 {
			return 0, false
		}
		n = n*10 + int(d)
	}
	return n, true
}

// Set stores value (a deep copy of its maps and slices) at key. Missing
// levels are created as maps and scalars in the way are replaced by maps;
// it never writes to a top-level key that merely contains dots. Through a
// slice, the segment must be an index of an existing element (replaced) or
// equal to the length (appended). An empty or malformed key is an error.
func (c *Config) Set(key string, value any) error {
	segs, err := dotpath.Lookup(key)
	if err != nil {
		return fmt.Errorf("config: set: %w", err)
	}
	if len(segs) == 0 {
		return errors.New("config: set: empty key")
	}
	value = cloneValue(value)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.values == nil {
		c.values = map[string]any{}
	}
	_, err = set(c.values, segs, 0, value)
	return err
}

// set writes val at segs[i:] below cur and returns the container that
// replaces cur. Nothing is attached to the tree until the levels below have
// succeeded, so a failed Set changes nothing.
func set(cur any, segs []string, i int, val any) (any, error) {
	seg, last := segs[i], i == len(segs)-1
	switch t := cur.(type) {
	case map[string]any:
		if last {
			t[seg] = val
			return t, nil
		}
		v, err := set(t[seg], segs, i+1, val)
		if err != nil {
			return nil, err
		}
		t[seg] = v
		return t, nil
	case []any:
		n, ok := index(seg)
		if !ok || n > len(t) {
			return nil, fmt.Errorf("config: set %q: no index %q in a slice of length %d at %q",
				strings.Join(segs, "."), seg, len(t), strings.Join(segs[:i], "."))
		}
		if n == len(t) {
			t = append(t, nil)
		}
		if last {
			t[n] = val
			return t, nil
		}
		v, err := set(t[n], segs, i+1, val)
		if err != nil {
			return nil, err
		}
		t[n] = v
		return t, nil
	}
	if k := reflect.ValueOf(cur).Kind(); k == reflect.Map || k == reflect.Slice || k == reflect.Array {
		// Replacing it would silently drop data; writing into it could not
		// hold values of any type.
		return nil, fmt.Errorf("config: set %q: cannot write into %T at %q",
			strings.Join(segs, "."), cur, strings.Join(segs[:i], "."))
	}
	// nil or a scalar stands in the way: a new level replaces it.
	return set(map[string]any{}, segs, i, val)
}

// clone deep-copies a map of configuration values; nil gives an empty map.
func clone(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return mustCopy(m)
}

// cloneValue deep-copies anything that could share memory with the caller
// and returns scalars as they are.
func cloneValue(v any) any {
	switch v.(type) {
	case nil, bool, string, int, int64, float64:
		return v // the common scalars, without reflection
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map, reflect.Slice, reflect.Array, reflect.Pointer, reflect.Struct:
		return mustCopy(v)
	}
	return v
}

func mustCopy[T any](v T) T {
	c, err := objcopy.Copy(v, true, objcopy.DefaultMaxLevel)
	if err != nil {
		// objcopy documents a nil error for every value made of maps,
		// slices, structs, pointers and scalars; anything else is its bug.
		panic(fmt.Sprintf("config: %v", err))
	}
	return c
}
