package env_test

import (
	"math"
	"slices"
	"testing"

	"github.com/agentkit/charter/helpers/env"
)

// fake returns an Env over vars; the tests never read the real environment.
func fake(vars map[string]string) *env.Env {
	return env.New(func(k string) (string, bool) {
		v, ok := vars[k]
		return v, ok
	})
}

// one returns an Env where FOO is set to v.
func one(v string) *env.Env { return fake(map[string]string{"FOO": v}) }

func TestGetHas(t *testing.T) {
	e := fake(map[string]string{"SET": "v", "EMPTY": ""})
	tests := []struct {
		key  string
		def  any
		want any
		has  bool
	}{
		{"SET", "d", "v", true},
		{"EMPTY", "d", "", true}, // an empty value counts as set
		{"UNSET", "d", "d", false},
		{"UNSET", nil, nil, false},
		{"UNSET", 42, 42, false},
	}
	for _, tt := range tests {
		if got := e.Get(tt.key, tt.def); got != tt.want {
			t.Errorf("Get(%q, %v) = %#v, want %#v", tt.key, tt.def, got, tt.want)
		}
		if got := e.Has(tt.key); got != tt.has {
			t.Errorf("Has(%q) = %v, want %v", tt.key, got, tt.has)
		}
	}
}

// result is a getter's outcome in comparable form.
type result[T comparable] struct {
	nilPtr bool
	val    T
	err    string
}

func outcome[T comparable](p *T, err error) result[T] {
	r := result[T]{nilPtr: p == nil}
	if p != nil {
		r.val = *p
	}
	if err != nil {
		r.err = err.Error()
	}
	return r
}

func ok[T comparable](v T) result[T]          { return result[T]{val: v} }
func fail[T comparable](msg string) result[T] { return result[T]{nilPtr: true, err: msg} }

type getterCase[T comparable] struct {
	name  string
	env   *env.Env
	def   any
	force bool
	want  result[T]
}

var unset = fake(nil)

func TestIntegerLenient(t *testing.T) {
	tests := []getterCase[int64]{
		{"prefix", one("12abc"), nil, true, ok[int64](12)},
		{"leading space", one(" 12"), nil, true, ok[int64](12)},
		{"leading tab newline", one("\t\n12"), nil, true, ok[int64](12)},
		{"fraction truncates", one("1.9"), nil, true, ok[int64](1)},
		{"negative fraction truncates toward zero", one("-1.9"), nil, true, ok[int64](-1)},
		{"exponent", one("1e3"), nil, true, ok[int64](1000)},
		{"negative exponent", one("125e-2"), nil, true, ok[int64](1)},
		{"no number", one("abc"), nil, true, ok[int64](0)},
		{"empty", one(""), nil, true, ok[int64](0)},
		{"overflow exponent saturates", one("1e400"), nil, true, ok[int64](math.MaxInt64)},
		{"negative overflow saturates", one("-1e400"), nil, true, ok[int64](math.MinInt64)},
		{"above max saturates", one("9223372036854775808"), nil, true, ok[int64](math.MaxInt64)},
		{"below min saturates", one("-9223372036854775809"), nil, true, ok[int64](math.MinInt64)},
		{"max", one("9223372036854775807"), nil, true, ok[int64](math.MaxInt64)},
		{"min", one("-9223372036854775808"), nil, true, ok[int64](math.MinInt64)},
		{"exact beyond 2^53", one("9007199254740993"), nil, true, ok[int64](9007199254740993)},
		{"exact beyond 2^53 with fraction", one("9007199254740993.75"), nil, true, ok[int64](9007199254740993)},
		{"hex is not a number", one("0x1A"), nil, true, ok[int64](0)},
		{"underscore ends the number", one("1_000"), nil, true, ok[int64](1)},
		{"Inf is not a number", one("Inf"), nil, true, ok[int64](0)},
		{"NaN is not a number", one("NaN"), nil, true, ok[int64](0)},
		{"unicode space is not skipped", one("\u00a012"), nil, true, ok[int64](0)},
		{"plus sign", one("+7"), nil, true, ok[int64](7)},
		{"dangling exponent", one("5e"), nil, true, ok[int64](5)},
		{"env wins over default", one("3"), 9, true, ok[int64](3)},
		{"nil default", unset, nil, true, result[int64]{nilPtr: true}},
		{"string default converts", unset, "12abc", true, ok[int64](12)},
		{"bool default true", unset, true, true, ok[int64](1)},
		{"bool default false", unset, false, true, ok[int64](0)},
		{"int default", unset, int8(-3), true, ok[int64](-3)},
		{"float default truncates", unset, 1.9, true, ok[int64](1)},
		{"negative float default truncates", unset, -1.9, true, ok[int64](-1)},
		{"huge float default saturates", unset, 1e300, true, ok[int64](math.MaxInt64)},
		{"NaN default", unset, math.NaN(), true, ok[int64](0)},
		{"uint64 default saturates", unset, uint64(math.MaxUint64), true, ok[int64](math.MaxInt64)},
		{"slice default", unset, []string{"1"}, true, fail[int64]("env: FOO: want integer, got default of type []string")},
		{"map default", unset, map[string]int{}, true, fail[int64]("env: FOO: want integer, got default of type map[string]int")},
	}
	run(t, tests, (*env.Env).Integer)
}

func TestIntegerStrict(t *testing.T) {
	tests := []getterCase[int64]{
		{"integer", one("42"), nil, false, ok[int64](42)},
		{"trimmed", one(" \t42\n"), nil, false, ok[int64](42)},
		{"signed", one("-42"), nil, false, ok[int64](-42)},
		{"plus", one("+42"), nil, false, ok[int64](42)},
		{"leading zeros", one("007"), nil, false, ok[int64](7)},
		{"max", one("9223372036854775807"), nil, false, ok[int64](math.MaxInt64)},
		{"exact beyond 2^53", one("9007199254740993"), nil, false, ok[int64](9007199254740993)},
		{"prefix", one("12abc"), nil, false, fail[int64](`env: FOO: want integer, got "12abc"`)},
		{"fraction", one("1.0"), nil, false, fail[int64](`env: FOO: want integer, got "1.0"`)},
		{"exponent", one("1e3"), nil, false, fail[int64](`env: FOO: want integer, got "1e3"`)},
		{"out of range", one("9223372036854775808"), nil, false, fail[int64](`env: FOO: want integer, got "9223372036854775808"`)},
		{"hex", one("0x10"), nil, false, fail[int64](`env: FOO: want integer, got "0x10"`)},
		{"underscore", one("1_000"), nil, false, fail[int64](`env: FOO: want integer, got "1_000"`)},
		{"empty", one(""), nil, false, fail[int64](`env: FOO: want integer, got ""`)},
		{"nil default", unset, nil, false, result[int64]{nilPtr: true}},
		{"string default is checked", unset, "12abc", false, fail[int64](`env: FOO: want integer, got "12abc"`)},
		{"string default", unset, "12", false, ok[int64](12)},
		{"int default", unset, 5, false, ok[int64](5)},
		{"uint default", unset, uint16(5), false, ok[int64](5)},
		{"uint64 default out of range", unset, uint64(math.MaxUint64), false, fail[int64]("env: FOO: want integer, got uint64(18446744073709551615)")},
		{"float default", unset, 1.5, false, fail[int64]("env: FOO: want integer, got float64(1.5)")},
		{"bool default", unset, true, false, fail[int64]("env: FOO: want integer, got bool(true)")},
		{"slice default", unset, []int{1}, false, fail[int64]("env: FOO: want integer, got default of type []int")},
	}
	run(t, tests, (*env.Env).Integer)
}

func TestFloatLenient(t *testing.T) {
	tests := []getterCase[float64]{
		{"exponent", one("1.23e-4"), nil, true, ok(0.000123)},
		{"prefix", one(" 2.5kg"), nil, true, ok(2.5)},
		{"no number", one("abc"), nil, true, ok(0.0)},
		{"overflow is +Inf", one("1e400"), nil, true, ok(math.Inf(1))},
		{"overflow is -Inf", one("-1e400"), nil, true, ok(math.Inf(-1))},
		{"underflow is 0", one("1e-400"), nil, true, ok(0.0)},
		{"point first", one(".5"), nil, true, ok(0.5)},
		{"point last", one("5."), nil, true, ok(5.0)},
		{"Inf is not a number", one("Inf"), nil, true, ok(0.0)},
		{"NaN is not a number", one("nan"), nil, true, ok(0.0)},
		{"hex float is not a number", one("0x1p3"), nil, true, ok(0.0)},
		{"underscore ends the number", one("1_5"), nil, true, ok(1.0)},
		{"bool default", unset, true, true, ok(1.0)},
		{"int default", unset, 3, true, ok(3.0)},
		{"float32 default", unset, float32(1.5), true, ok(1.5)},
		{"string default", unset, "2.5x", true, ok(2.5)},
		{"map default", unset, map[string]any{}, true, fail[float64]("env: FOO: want float, got default of type map[string]interface {}")},
	}
	run(t, tests, (*env.Env).Float)
}

func TestFloatStrict(t *testing.T) {
	tests := []getterCase[float64]{
		{"decimal", one("1.5"), nil, false, ok(1.5)},
		{"trimmed", one(" .5\n"), nil, false, ok(0.5)},
		{"exponent", one("-2E3"), nil, false, ok(-2000.0)},
		{"integer", one("7"), nil, false, ok(7.0)},
		{"underflow is 0", one("1e-400"), nil, false, ok(0.0)},
		{"overflow", one("1e400"), nil, false, fail[float64](`env: FOO: want float, got "1e400"`)},
		{"Inf", one("Inf"), nil, false, fail[float64](`env: FOO: want float, got "Inf"`)},
		{"NaN", one("NaN"), nil, false, fail[float64](`env: FOO: want float, got "NaN"`)},
		{"hex", one("0x1p3"), nil, false, fail[float64](`env: FOO: want float, got "0x1p3"`)},
		{"underscore", one("1_0"), nil, false, fail[float64](`env: FOO: want float, got "1_0"`)},
		{"prefix", one("2.5kg"), nil, false, fail[float64](`env: FOO: want float, got "2.5kg"`)},
		{"int default", unset, int64(3), false, ok(3.0)},
		{"float default", unset, 2.5, false, ok(2.5)},
		{"bool default", unset, true, false, fail[float64]("env: FOO: want float, got bool(true)")},
		{"string default is checked", unset, "x", false, fail[float64](`env: FOO: want float, got "x"`)},
	}
	run(t, tests, (*env.Env).Float)
}

func TestBooleanLenient(t *testing.T) {
	tests := []getterCase[bool]{
		{"true", one("true"), nil, true, ok(true)},
		{"TRUE", one("TRUE"), nil, true, ok(true)},
		{"mixed case", one("tRuE"), nil, true, ok(true)},
		{"false", one("false"), nil, true, ok(false)},
		{"yes is false", one("yes"), nil, true, ok(false)},
		{"on is false", one("on"), nil, true, ok(false)},
		{"padded true is false", one(" true"), nil, true, ok(false)},
		{"one", one("1"), nil, true, ok(true)},
		{"zero", one("0"), nil, true, ok(false)},
		{"differs: 0.0 is false", one("0.0"), nil, true, ok(false)},
		{"zero with exponent", one("0e5"), nil, true, ok(false)},
		{"two", one("2"), nil, true, ok(true)},
		{"negative", one("-1"), nil, true, ok(true)},
		{"tiny is not zero", one("1e-400"), nil, true, ok(true)},
		{"padded number", one(" 1 "), nil, true, ok(true)},
		{"padded zero", one(" 0 "), nil, true, ok(false)},
		{"number prefix is not numeric", one("12abc"), nil, true, ok(false)},
		{"empty", one(""), nil, true, ok(false)},
		{"int default", unset, 2, true, ok(true)},
		{"zero default", unset, 0.0, true, ok(false)},
		{"bool default", unset, true, true, ok(true)},
		{"string default", unset, "0.0", true, ok(false)},
		{"slice default", unset, []bool{}, true, fail[bool]("env: FOO: want boolean, got default of type []bool")},
	}
	run(t, tests, (*env.Env).Boolean)
}

func TestBooleanStrict(t *testing.T) {
	tests := []getterCase[bool]{
		{"true", one("True"), nil, false, ok(true)},
		{"false", one("FALSE"), nil, false, ok(false)},
		{"one", one("1"), nil, false, ok(true)},
		{"zero", one("0"), nil, false, ok(false)},
		{"trimmed", one(" true\n"), nil, false, ok(true)},
		{"yes", one("yes"), nil, false, fail[bool](`env: FOO: want boolean, got "yes"`)},
		{"two", one("2"), nil, false, fail[bool](`env: FOO: want boolean, got "2"`)},
		{"0.0", one("0.0"), nil, false, fail[bool](`env: FOO: want boolean, got "0.0"`)},
		{"bool default", unset, false, false, ok(false)},
		{"int default", unset, 1, false, fail[bool]("env: FOO: want boolean, got int(1)")},
	}
	run(t, tests, (*env.Env).Boolean)
}

func TestString(t *testing.T) {
	tests := []getterCase[string]{
		{"as is", one(" a b "), nil, true, ok(" a b ")},
		{"strict as is", one(" a b "), nil, false, ok(" a b ")},
		{"empty", one(""), nil, true, ok("")},
		{"string default", unset, "d", false, ok("d")},
		{"nil default", unset, nil, true, result[string]{nilPtr: true}},
		{"bool default", unset, true, true, ok("true")},
		{"int default", unset, -42, true, ok("-42")},
		{"uint default", unset, uint64(math.MaxUint64), true, ok("18446744073709551615")},
		{"float default", unset, 1.5, true, ok("1.5")},
		{"large float default has no exponent", unset, 1e21, true, ok("1000000000000000000000")},
		{"small float default has no exponent", unset, 1e-7, true, ok("0.0000001")},
		{"float32 default is shortest", unset, float32(0.1), true, ok("0.1")},
		{"strict int default", unset, 5, false, fail[string]("env: FOO: want string, got int(5)")},
		{"slice default", unset, []string{"a"}, true, fail[string]("env: FOO: want string, got default of type []string")},
	}
	run(t, tests, (*env.Env).String)
}

func run[T comparable](t *testing.T, tests []getterCase[T], get func(*env.Env, string, any, bool) (*T, error)) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := outcome(get(tt.env, "FOO", tt.def, tt.force))
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestArray(t *testing.T) {
	def := []string{"default"}
	tests := []struct {
		name string
		env  *env.Env
		def  []string
		sep  string
		want []string
	}{
		{"absent gives def", unset, def, ",", def},
		{"absent gives nil def", unset, nil, ",", nil},
		{"split", one("a,b,c"), def, ",", []string{"a", "b", "c"}},
		{"items trimmed, empty kept", one("a, b ,,c"), def, ",", []string{"a", "b", "", "c"}},
		{"value trimmed first", one(" \t\n\r\x00\va,b\v\x00\r\n\t "), def, ",", []string{"a", "b"}},
		{"trailing separator keeps empty item", one("a,"), def, ",", []string{"a", ""}},
		{"empty is nil, not def", one(""), def, ",", nil},
		{"blank is nil, not def", one(" \t\x00 "), def, ",", nil},
		{"no separator in value", one(" a b "), def, ",", []string{"a b"}},
		{"empty separator", one("a,b"), def, "", []string{"a,b"}},
		{"other separator", one("a;b"), def, ";", []string{"a", "b"}},
		{"long separator", one("a::b:c"), def, "::", []string{"a", "b:c"}},
		{"form feed is not trimmed", one("\fa"), def, ",", []string{"\fa"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.env.Array("FOO", tt.def, tt.sep)
			if !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
				t.Errorf("Array = %#v, want %#v", got, tt.want)
			}
		})
	}
}

// TestConcurrent shows that an Env has no state of its own.
func TestConcurrent(t *testing.T) {
	e := one("12")
	t.Parallel()
	for range 4 {
		t.Run("", func(t *testing.T) {
			t.Parallel()
			for range 1000 {
				if v, err := e.Integer("FOO", nil, false); err != nil || *v != 12 {
					t.Errorf("Integer = %v, %v", v, err)
				}
			}
		})
	}
}
