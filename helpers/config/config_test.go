package config

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// sample is a fresh configuration for each test.
func sample() map[string]any {
	return map[string]any{
		"a.b": "literal",
		"a":   map[string]any{"b": "nested", "c": map[string]any{"d": 4}},
		"servers": []any{
			map[string]any{"host": "h0"},
			map[string]any{"host": "h1", "ports": []any{80, 443}},
		},
		"nil":    nil,
		"false":  false,
		"zero":   0,
		"empty":  "",
		"typed":  map[string]string{"k": "v"},
		"list":   []string{"x", "y"},
		"deep":   map[string]any{"nil": nil},
		"scalar": "s",
	}
}

func TestGet(t *testing.T) {
	c := New(sample())
	tests := []struct {
		key  string
		want any
		has  bool
	}{
		{"a.b", "literal", true}, // the literal top-level key wins
		{"a.c.d", 4, true},
		{"servers.1.host", "h1", true},
		{"servers.1.ports.1", 443, true},
		{"servers.0.ports", "def", false},
		{"servers.2.host", "def", false},
		{"servers.01.host", "def", false}, // not a canonical index
		{"servers.-1.host", "def", false},
		{"servers.x", "def", false},
		{"nil", "def", false}, // a stored nil counts as missing
		{"deep.nil", "def", false},
		{"false", false, true},
		{"zero", 0, true},
		{"empty", "", true},
		{"typed.k", "v", true}, // other map types are walked too
		{"list.1", "y", true},  // and other slice types
		{"list.2", "def", false},
		{"scalar.x", "def", false}, // cannot walk into a scalar
		{"missing", "def", false},
		{"missing.deeper", "def", false},
		{"", "def", false},
		{"a..b", "def", false}, // malformed: missing, no panic
		{".a", "def", false},
	}
	for _, tt := range tests {
		if got := c.Get(tt.key, "def"); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Get(%q) = %#v, want %#v", tt.key, got, tt.want)
		}
		if got := c.Has(tt.key); got != tt.has {
			t.Errorf("Has(%q) = %v, want %v", tt.key, got, tt.has)
		}
	}
}

func TestGetLiteralKeys(t *testing.T) {
	c := New(map[string]any{"": "empty key", "x.y.z": 1, "x": map[string]any{"y": nil}, "n.m": nil, "n": map[string]any{"m": 2}})
	if got := c.Get("", nil); got != "empty key" {
		t.Errorf(`Get("") = %#v`, got)
	}
	if got := c.Get("x.y.z", nil); got != 1 {
		t.Errorf("Get(x.y.z) = %#v", got)
	}
	// A nil literal counts as missing, so the path is walked instead.
	if got := c.Get("n.m", nil); got != 2 {
		t.Errorf("Get(n.m) = %#v", got)
	}
}

func TestGetReturnsCopies(t *testing.T) {
	c := New(sample())
	m := c.Get("a", nil).(map[string]any)
	m["b"] = "changed"
	m["c"].(map[string]any)["d"] = 5
	s := c.Get("servers", nil).([]any)
	s[0] = "changed"
	c.GetArray("servers", nil)[1] = "changed"
	all := c.All()
	all["scalar"] = "changed"
	if c.Get("a.c.d", nil) != 4 || c.Get("servers.0.host", nil) != "h0" || c.Get("servers.1.host", nil) != "h1" ||
		c.Get("scalar", nil) != "s" {
		t.Fatal("a caller's change to a returned value reached the Config")
	}
}

func TestGetBoolean(t *testing.T) {
	tests := []struct {
		v    any
		want bool
	}{
		{true, true}, {false, false},
		{"true", true}, {"TRUE", true}, {"1", true}, {"yes", true}, {"YES", true}, {"on", true}, {"On", true},
		{"false", false}, {"0", false}, {"no", false}, {"off", false}, {"", false}, {" yes", false}, {"2", false}, {"y", false},
		{1, true}, {0, false}, {-1, true}, {0.0, false}, {-0.5, true}, {math.NaN(), true}, {uint8(0), false}, {uint(3), true},
		{int64(0), false}, {float32(0.1), true}, {json.Number("1"), true},
	}
	for _, tt := range tests {
		c := New(map[string]any{"k": tt.v})
		// Both defaults, so the result cannot come from the default.
		if got := c.GetBoolean("k", !tt.want); got != tt.want {
			t.Errorf("GetBoolean(%#v) = %v, want %v", tt.v, got, tt.want)
		}
	}
	defaults := map[string]any{"map": map[string]any{"x": true}, "slice": []any{true}, "nil": nil, "struct": struct{}{}}
	c := New(defaults)
	for _, k := range []string{"map", "slice", "nil", "struct", "missing"} {
		if !c.GetBoolean(k, true) || c.GetBoolean(k, false) {
			t.Errorf("GetBoolean(%q) did not return the default", k)
		}
	}
}

func TestGetInteger(t *testing.T) {
	tests := []struct {
		v    any
		want int64
	}{
		{42, 42}, {int8(-8), -8}, {uint16(16), 16}, {uint64(math.MaxUint64), math.MaxInt64},
		{1.9, 1}, {-1.9, -1}, {float32(2.5), 2}, {1e300, math.MaxInt64}, {-1e300, math.MinInt64}, {math.NaN(), 0},
		{"12abc", 12}, {" 7", 7}, {"abc", 0}, {"1e3", 1000}, {"-1.9", -1}, {"9007199254740993", 9007199254740993},
		{"0x10", 0}, {"1e400", math.MaxInt64}, {json.Number("5"), 5},
		{true, 1}, {false, 0},
	}
	for _, tt := range tests {
		c := New(map[string]any{"k": tt.v})
		if got := c.GetInteger("k", -99); got != tt.want {
			t.Errorf("GetInteger(%#v) = %d, want %d", tt.v, got, tt.want)
		}
	}
	c := New(sample())
	for _, k := range []string{"a", "servers", "nil", "missing", "a.c"} {
		if got := c.GetInteger(k, -99); got != -99 {
			t.Errorf("GetInteger(%q) = %d, want the default", k, got)
		}
	}
}

func TestGetFloat(t *testing.T) {
	tests := []struct {
		v    any
		want float64
	}{
		{1, 1}, {1.5, 1.5}, {float32(0.5), 0.5}, {uint(3), 3}, {int64(-4), -4},
		{"1.23e-4", 0.000123}, {"2.5kg", 2.5}, {"abc", 0}, {"Inf", 0}, {"1e400", math.Inf(1)},
		{true, 1}, {false, 0},
	}
	for _, tt := range tests {
		c := New(map[string]any{"k": tt.v})
		if got := c.GetFloat("k", -99); got != tt.want {
			t.Errorf("GetFloat(%#v) = %v, want %v", tt.v, got, tt.want)
		}
	}
	c := New(sample())
	for _, k := range []string{"a", "servers", "nil", "missing"} {
		if got := c.GetFloat(k, -99); got != -99 {
			t.Errorf("GetFloat(%q) = %v, want the default", k, got)
		}
	}
}

func TestGetString(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{"s", "s"}, {" padded ", " padded "}, {"", ""}, {json.Number("1.50"), "1.50"},
		{42, "42"}, {int8(-8), "-8"}, {uint64(math.MaxUint64), "18446744073709551615"},
		{1.5, "1.5"}, {1e21, "1000000000000000000000"}, {1e-7, "0.0000001"}, {0.1, "0.1"},
		{float32(0.1), "0.1"}, {-0.0, "0"}, {math.Copysign(0, -1), "-0"}, {math.Inf(1), "+Inf"},
		{true, "true"}, {false, "false"},
	}
	for _, tt := range tests {
		c := New(map[string]any{"k": tt.v})
		if got := c.GetString("k", "def"); got != tt.want {
			t.Errorf("GetString(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
	c := New(sample())
	for _, k := range []string{"a", "servers", "list", "typed", "nil", "missing"} {
		if got := c.GetString(k, "def"); got != "def" {
			t.Errorf("GetString(%q) = %q, want the default", k, got)
		}
	}
}

func TestGetArray(t *testing.T) {
	c := New(sample())
	def := []any{"def"}
	tests := []struct {
		key  string
		want []any
	}{
		{"servers.1.ports", []any{80, 443}},
		{"list", []any{"x", "y"}}, // other slice types become []any
		{"a", def},
		{"scalar", def},
		{"missing", def},
		{"nil", def},
	}
	for _, tt := range tests {
		if got := c.GetArray(tt.key, def); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("GetArray(%q) = %#v, want %#v", tt.key, got, tt.want)
		}
	}
}

func TestSet(t *testing.T) {
	tests := []struct {
		name  string
		start map[string]any
		key   string
		value any
		want  map[string]any
		err   string
	}{
		{"top level", map[string]any{}, "a", 1, map[string]any{"a": 1}, ""},
		{"creates levels as maps", map[string]any{}, "a.b.c", 1,
			map[string]any{"a": map[string]any{"b": map[string]any{"c": 1}}}, ""},
		{"replaces a scalar in the way", map[string]any{"a": 5}, "a.b", 1,
			map[string]any{"a": map[string]any{"b": 1}}, ""},
		{"replaces a nil in the way", map[string]any{"a": nil}, "a.b", 1,
			map[string]any{"a": map[string]any{"b": 1}}, ""},
		{"never writes the literal dotted key", map[string]any{"a.b": 1}, "a.b", 2,
			map[string]any{"a.b": 1, "a": map[string]any{"b": 2}}, ""},
		{"replaces a slice element", map[string]any{"l": []any{"x", "y"}}, "l.0", "z",
			map[string]any{"l": []any{"z", "y"}}, ""},
		{"appends at the length", map[string]any{"l": []any{"x"}}, "l.1", "y",
			map[string]any{"l": []any{"x", "y"}}, ""},
		{"appends a new level", map[string]any{"l": []any{}}, "l.0.name", "n",
			map[string]any{"l": []any{map[string]any{"name": "n"}}}, ""},
		{"walks into a slice element", map[string]any{"l": []any{map[string]any{"a": 1}}}, "l.0.b", 2,
			map[string]any{"l": []any{map[string]any{"a": 1, "b": 2}}}, ""},
		{"replaces a scalar element by a map", map[string]any{"l": []any{1}}, "l.0.b", 2,
			map[string]any{"l": []any{map[string]any{"b": 2}}}, ""},
		{"nil value", map[string]any{"a": 1}, "a", nil, map[string]any{"a": nil}, ""},
		{"index beyond the length", map[string]any{"l": []any{"x"}}, "l.2", "y", nil,
			`config: set "l.2": no index "2" in a slice of length 1 at "l"`},
		{"non-numeric index", map[string]any{"l": []any{"x"}}, "l.x", "y", nil,
			`config: set "l.x": no index "x" in a slice of length 1 at "l"`},
		{"non-canonical index", map[string]any{"l": []any{"x"}}, "l.01", "y", nil,
			`config: set "l.01": no index "01" in a slice of length 1 at "l"`},
		{"negative index", map[string]any{"l": []any{"x"}}, "l.-1", "y", nil,
			`config: set "l.-1": no index "-1" in a slice of length 1 at "l"`},
		{"deep index error changes nothing", map[string]any{"a": 1, "l": []any{[]any{}}}, "l.0.5.x", "y", nil,
			`config: set "l.0.5.x": no index "5" in a slice of length 0 at "l.0"`},
		{"typed map", map[string]any{"m": map[string]string{}}, "m.k", "v", nil,
			`config: set "m.k": cannot write into map[string]string at "m"`},
		{"typed slice", map[string]any{"s": []string{"x"}}, "s.0", "v", nil,
			`config: set "s.0": cannot write into []string at "s"`},
		{"empty key", map[string]any{}, "", 1, nil, "config: set: empty key"},
		{"leading dot", map[string]any{}, ".a", 1, nil, `config: set: invalid dot-path syntax: leading dot in ".a"`},
		{"trailing dot", map[string]any{}, "a.", 1, nil, `config: set: invalid dot-path syntax: trailing dot in "a."`},
		{"double dot", map[string]any{}, "a..b", 1, nil, `config: set: invalid dot-path syntax: double dot in "a..b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(tt.start)
			err := c.Set(tt.key, tt.value)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("Set error %v, want %q", err, tt.err)
				}
				if got := c.All(); !reflect.DeepEqual(got, tt.start) {
					t.Fatalf("a failed Set changed the values: %#v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := c.All(); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("after Set: %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestSetCopiesTheValue(t *testing.T) {
	c := New(nil)
	v := map[string]any{"x": []any{1}}
	if err := c.Set("k", v); err != nil {
		t.Fatal(err)
	}
	v["x"].([]any)[0] = 2
	v["y"] = 3
	if c.Get("k.x.0", nil) != 1 || c.Has("k.y") {
		t.Fatal("a change to the value after Set reached the Config")
	}
}

func TestNewCopiesItsInput(t *testing.T) {
	in := sample()
	c := New(in)
	in["scalar"] = "changed"
	in["a"].(map[string]any)["c"].(map[string]any)["d"] = 5
	if c.Get("scalar", nil) != "s" || c.Get("a.c.d", nil) != 4 {
		t.Fatal("New did not copy its input")
	}
}

func TestOtherContainerTypes(t *testing.T) {
	type point struct{ X, Y int }
	p := &point{1, 2}
	c := New(map[string]any{
		"intkeys": map[int]string{1: "one"},
		"arr":     [2]int{1, 2},
		"nilList": []string(nil),
		"ptr":     p,
		"st":      point{3, 4},
	})
	if c.Has("intkeys.1") {
		t.Error("a map without string keys cannot be walked")
	}
	if got := c.Get("arr.1", nil); got != 2 {
		t.Errorf("Get(arr.1) = %#v", got)
	}
	if c.Has("arr.2") || c.Has("arr.x") {
		t.Error("array index out of range or not an index")
	}
	if got := c.GetArray("nilList", []any{"def"}); got != nil {
		t.Errorf("GetArray(nil slice) = %#v", got)
	}
	if got := c.Get("ptr", nil).(*point); got == p || *got != *p {
		t.Error("a stored pointer must come out as a copy")
	}
	if got := c.Get("st", nil); got != (point{3, 4}) {
		t.Errorf("Get(st) = %#v", got)
	}
	if got := c.GetInteger("st", -1); got != -1 {
		t.Errorf("GetInteger(struct) = %d, want the default", got)
	}
}
