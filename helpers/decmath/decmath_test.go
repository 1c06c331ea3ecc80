package decmath

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/shopspring/decimal"
)

type want struct {
	val float64
	err string // the whole message, "" for none
	is  error  // the sentinel, when there is one
}

func check(t *testing.T, name string, got float64, err error, w want) {
	t.Helper()
	gotErr := ""
	if err != nil {
		gotErr = err.Error()
	}
	if gotErr != w.err {
		t.Errorf("%s: error %q, want %q", name, gotErr, w.err)
		return
	}
	if w.is != nil && !errors.Is(err, w.is) {
		t.Errorf("%s: error %v is not %v", name, err, w.is)
	}
	if err == nil && (got != w.val || math.Signbit(got) != math.Signbit(w.val)) {
		t.Errorf("%s = %v, want %v", name, got, w.val)
	}
}

func TestOperands(t *testing.T) {
	tests := []struct {
		name string
		a    any
		want want
	}{
		{"nil is 0", nil, want{val: 0}},
		{"empty string is 0", "", want{val: 0}},
		{"int", 7, want{val: 7}},
		{"int8", int8(-8), want{val: -8}},
		{"int16", int16(16), want{val: 16}},
		{"int32", int32(32), want{val: 32}},
		{"int64 exact", int64(9007199254740993), want{val: 9007199254740993}},
		{"uint", uint(1), want{val: 1}},
		{"uint8", uint8(8), want{val: 8}},
		{"uint16", uint16(16), want{val: 16}},
		{"uint32", uint32(32), want{val: 32}},
		{"uint64", uint64(math.MaxUint64), want{val: 18446744073709551615}},
		{"uintptr", uintptr(3), want{val: 3}},
		{"float64 shortest", 0.1, want{val: 0.1}},
		{"float32 shortest as float32", float32(0.1), want{val: 0.1}},
		{"tiny float", 5e-324, want{val: 0}}, // truncated at scale 16
		{"string", "1.5", want{val: 1.5}},
		{"point first", ".5", want{val: 0.5}},
		{"point last", "5.", want{val: 5}},
		{"negative point first", "-.5", want{val: -0.5}},
		{"plus sign", "+2", want{val: 2}},
		{"exponent", "1.5e3", want{val: 1500}},
		{"trimmed", " \t1.5\n", want{val: 1.5}},
		{"zero with huge exponent", "0e99999", want{val: 0}},
		{"json.Number", json.Number("2.25"), want{val: 2.25}},
		{"decimal", decimal.RequireFromString("-3.75"), want{val: -3.75}},
		{"blank string", "  ", want{err: `decmath: add: "  " is not numeric`, is: ErrNotNumeric}},
		{"word", "abc", want{err: `decmath: add: "abc" is not numeric`, is: ErrNotNumeric}},
		{"prefix only", "12abc", want{err: `decmath: add: "12abc" is not numeric`, is: ErrNotNumeric}},
		{"Inf string", "Inf", want{err: `decmath: add: "Inf" is not numeric`, is: ErrNotNumeric}},
		{"NaN string", "NaN", want{err: `decmath: add: "NaN" is not numeric`, is: ErrNotNumeric}},
		{"hex", "0x10", want{err: `decmath: add: "0x10" is not numeric`, is: ErrNotNumeric}},
		{"underscore", "1_000", want{err: `decmath: add: "1_000" is not numeric`, is: ErrNotNumeric}},
		{"dangling exponent", "1e", want{err: `decmath: add: "1e" is not numeric`, is: ErrNotNumeric}},
		{"unicode minus", "\u22121", want{err: `decmath: add: "−1" is not numeric`, is: ErrNotNumeric}},
		{"bad json.Number", json.Number("x"), want{err: `decmath: add: "x" is not numeric`, is: ErrNotNumeric}},
		{"NaN", math.NaN(), want{err: `decmath: add: NaN is not numeric`, is: ErrNotNumeric}},
		{"+Inf", math.Inf(1), want{err: `decmath: add: +Inf is not numeric`, is: ErrNotNumeric}},
		{"-Inf float32", float32(math.Inf(-1)), want{err: `decmath: add: -Inf is not numeric`, is: ErrNotNumeric}},
		{"bool", true, want{err: `decmath: add: true is not numeric`, is: ErrNotNumeric}},
		{"slice", []int{1}, want{err: `decmath: add: []int{1} is not numeric`, is: ErrNotNumeric}},
		{"huge exponent", "1e10001", want{err: `decmath: add: "1e10001" has an exponent beyond ±10000: not numeric`, is: ErrNotNumeric}},
		{"tiny exponent", "1e-10001", want{err: `decmath: add: "1e-10001" has an exponent beyond ±10000: not numeric`, is: ErrNotNumeric}},
		{"exponent beyond int32", "1e9999999999", want{err: `decmath: add: "1e9999999999" has an exponent beyond ±10000: not numeric`, is: ErrNotNumeric}},
		{"decimal with huge exponent", decimal.New(1, 20000), want{err: `decmath: add: decimal.New(1, 20000) has an exponent beyond ±10000: not numeric`, is: ErrNotNumeric}},
	}
	for _, tt := range tests {
		got, err := Add(tt.a, 0, DefaultScale)
		check(t, tt.name, got, err, tt.want)
	}
}

func TestExactness(t *testing.T) {
	tests := []struct {
		name string
		got  func() (float64, error)
		want want
	}{
		{"differs: floats by shortest decimal", func() (float64, error) { return Add(1.0/3, 1.0/3, 16) }, want{val: 0.6666666666666666}},
		{"0.1+0.2 is exact", func() (float64, error) { return Add(0.1, 0.2, 16) }, want{val: 0.3}},
		{"1e-20 is not 0", func() (float64, error) { return Add("1e-20", 0, 20) }, want{val: 1e-20}},
		{"1e-20 truncates at 16", func() (float64, error) { return Add("1e-20", 0, 16) }, want{val: 0}},
		{"beyond 2^53", func() (float64, error) { return Add(int64(1)<<53, 1, 0) }, want{val: 9007199254740992}}, // the nearest float64
		{"long literal", func() (float64, error) { return Subtract("1.00000000000000000000001", "1", 23) }, want{val: 1e-23}},
		{"multiply", func() (float64, error) { return Multiply("1.5", "1.5", 2) }, want{val: 2.25}},
		{"multiply truncates", func() (float64, error) { return Multiply("1.5", "1.5", 1) }, want{val: 2.2}},
		{"subtract", func() (float64, error) { return Subtract(0.3, 0.1, 16) }, want{val: 0.2}},
		{"tiny times huge", func() (float64, error) { return Multiply("1e-9999", "1e9999", 0) }, want{val: 1}},
		{"huge minus huge", func() (float64, error) { return Subtract("1e9999", "1e9999", 0) }, want{val: 0}},
	}
	for _, tt := range tests {
		got, err := tt.got()
		check(t, tt.name, got, err, tt.want)
	}
}

func TestTruncation(t *testing.T) {
	tests := []struct {
		name string
		got  func() (float64, error)
		want want
	}{
		{"divide truncates", func() (float64, error) { return Divide(2, 3, 2, true) }, want{val: 0.66}},
		{"negative truncates toward zero", func() (float64, error) { return Add("-1.999", 0, 2) }, want{val: -1.99}},
		{"negative divide", func() (float64, error) { return Divide(-2, 3, 2, true) }, want{val: -0.66}},
		{"scale 0", func() (float64, error) { return Divide(7, 2, 0, true) }, want{val: 3}},
		{"-0 becomes 0", func() (float64, error) { return Subtract(0, 0.001, 2) }, want{val: 0}},
		{"-0 from multiply", func() (float64, error) { return Multiply(-1, "0.001", 2) }, want{val: 0}},
		{"-0 operand", func() (float64, error) { return Add(math.Copysign(0, -1), "-0", 2) }, want{val: 0}},
		{"-0 from underflow", func() (float64, error) { return Multiply("-1e-200", "1e-200", 500) }, want{val: 0}},
		{"1/3 at 16", func() (float64, error) { return Divide(1, 3, 16, true) }, want{val: 0.3333333333333333}},
		{"1/3 at a huge scale", func() (float64, error) { return Divide(1, 3, 1<<40, true) }, want{val: 1.0 / 3}},
		{"2/3 at a huge scale rounds to nearest float", func() (float64, error) { return Divide(2, 3, math.MaxInt, true) }, want{val: 2.0 / 3}},
		{"1/8 at a huge scale is exact", func() (float64, error) { return Divide(1, 8, 1<<40, true) }, want{val: 0.125}},
		{"add at a huge scale", func() (float64, error) { return Add(0.1, 0.2, math.MaxInt) }, want{val: 0.3}},
		{"negative scale", func() (float64, error) { return Add(1, 2, -1) }, want{err: "decmath: add: negative scale -1"}},
		{"result beyond float64", func() (float64, error) { return Multiply("1e200", "1e200", 0) }, want{err: "decmath: multiply: result is beyond the float64 range"}},
		{"sum beyond float64", func() (float64, error) { return Add(math.MaxFloat64, math.MaxFloat64, 0) }, want{err: "decmath: add: result is beyond the float64 range"}},
		{"divide beyond float64", func() (float64, error) { return Divide("1e300", "1e-300", 0, true) }, want{err: "decmath: divide: result is beyond the float64 range"}},
	}
	for _, tt := range tests {
		got, err := tt.got()
		check(t, tt.name, got, err, tt.want)
	}
}

func TestCheckOrder(t *testing.T) {
	tests := []struct {
		name string
		got  func() (float64, error)
		want string
	}{
		{"scale first", func() (float64, error) { return Add("x", "y", -1) }, "decmath: add: negative scale -1"},
		{"then the left operand", func() (float64, error) { return Subtract("x", "y", 2) }, `decmath: subtract: "x" is not numeric`},
		{"then the right operand", func() (float64, error) { return Multiply(1, "y", 2) }, `decmath: multiply: "y" is not numeric`},
		{"operands before zero division", func() (float64, error) { return Divide("x", 0, 2, true) }, `decmath: divide: "x" is not numeric`},
		{"right operand before zero division", func() (float64, error) { return Divide(1, "y", 2, true) }, `decmath: divide: "y" is not numeric`},
		{"scale before zero division", func() (float64, error) { return Divide(1, 0, -2, true) }, "decmath: divide: negative scale -2"},
		{"aggregate scale first", func() (float64, error) { return Sum([]any{"x"}, -1) }, "decmath: sum: negative scale -1"},
		{"aggregate first bad entry", func() (float64, error) { return Max([]any{1, "x", "y"}, 2) }, `decmath: max: "x" is not numeric`},
	}
	for _, tt := range tests {
		_, err := tt.got()
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestDivideByZero(t *testing.T) {
	zeros := []any{0, 0.0, math.Copysign(0, -1), "0", "0.0", "-0", "0e5", ".0", nil, "", int8(0), uint(0),
		json.Number("0"), decimal.Zero, decimal.New(0, -3)}
	for _, z := range zeros {
		got, err := Divide(1, z, 2, true)
		if !errors.Is(err, ErrDivisionByZero) || got != 0 {
			t.Errorf("Divide(1, %#v, errOnZero) = %v, %v; want ErrDivisionByZero", z, got, err)
		}
		// differs: no zero spelling throws with the flag off.
		got, err = Divide(1, z, 2, false)
		if err != nil || got != 0 || math.Signbit(got) {
			t.Errorf("Divide(1, %#v) = %v, %v; want 0", z, got, err)
		}
	}
	_, err := Divide(1.5, "0.0", 2, true)
	if want := `decmath: divide 1.5 by "0.0": division by zero`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if got, err := Divide(0, 5, 2, true); err != nil || got != 0 {
		t.Errorf("Divide(0, 5) = %v, %v", got, err)
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		a, b  any
		scale int
		want  int
	}{
		{"1.001", "1.002", 2, 0},
		{"1.001", "1.002", 3, -1},
		{"-1.001", "-1.002", 2, 0},
		{"-1.001", "-1.002", 3, 1},
		{1, 2, 0, -1},
		{2, 1, 0, 1},
		{0.1, "0.1", 16, 0},
		{0.1, "0.1000000000000000055511151231257827", 40, -1}, // shortest decimal, not binary value
		{nil, "", 0, 0},
		{"0.5", 0, 0, 0},
		{"-0.5", 0, 0, 0},
		{int64(9007199254740993), int64(9007199254740992), 0, 1},
		{"1e9999", "1e9998", 0, 1},
	}
	for _, tt := range tests {
		got, err := Compare(tt.a, tt.b, tt.scale)
		if err != nil || got != tt.want {
			t.Errorf("Compare(%#v, %#v, %d) = %d, %v; want %d", tt.a, tt.b, tt.scale, got, err, tt.want)
		}
	}
	if _, err := Compare(1, "x", 2); !errors.Is(err, ErrNotNumeric) || err.Error() != `decmath: compare: "x" is not numeric` {
		t.Errorf("Compare(1, x) error %v", err)
	}
	if _, err := Compare(1, 2, -1); err == nil || err.Error() != "decmath: compare: negative scale -1" {
		t.Errorf("Compare negative scale error %v", err)
	}
}

func TestAggregates(t *testing.T) {
	tenths := make([]any, 10)
	for i := range tenths {
		tenths[i] = 0.1
	}
	type agg func([]any, int) (float64, error)
	tests := []struct {
		name   string
		f      agg
		values []any
		scale  int
		want   want
	}{
		{"sum empty", Sum, []any{}, 2, want{val: 0}},
		{"sum nil slice", Sum, nil, 2, want{val: 0}},
		{"sum only nil", Sum, []any{nil, nil}, 2, want{val: 0}},
		{"sum skips nil", Sum, []any{nil, 1, nil, "2.5"}, 1, want{val: 3.5}},
		{"differs: sum is exact", Sum, tenths, 16, want{val: 1}},
		{"sum truncates once", Sum, []any{"0.005", "0.005"}, 2, want{val: 0.01}},
		{"sum non-numeric", Sum, []any{1, "x"}, 2, want{err: `decmath: sum: "x" is not numeric`, is: ErrNotNumeric}},
		{"sum beyond float64", Sum, []any{math.MaxFloat64, math.MaxFloat64}, 0, want{err: "decmath: sum: result is beyond the float64 range"}},
		{"average", Average, []any{1, 2, 2}, 2, want{val: 1.66}},
		{"average skips nil in the count", Average, []any{1, nil, 2}, 2, want{val: 1.5}},
		{"average counts empty strings as 0", Average, []any{1, "", 2}, 2, want{val: 1}},
		{"average empty", Average, []any{}, 2, want{val: 0}},
		{"average only nil", Average, []any{nil}, 2, want{val: 0}},
		{"average negative truncates toward zero", Average, []any{-1, -1, 0}, 2, want{val: -0.66}},
		{"differs: average rejects non-numeric", Average, []any{1, "abc"}, 2, want{err: `decmath: average: "abc" is not numeric`, is: ErrNotNumeric}},
		{"min", Min, []any{3, "1.5", nil, 2}, 2, want{val: 1.5}},
		{"min negative", Min, []any{"-1.999", 0}, 2, want{val: -1.99}},
		{"min exact", Min, []any{"0.10000000000000000001", "0.1"}, 20, want{val: 0.1}},
		{"min empty", Min, []any{}, 2, want{val: 0}},
		{"min non-numeric", Min, []any{1, true}, 2, want{err: `decmath: min: true is not numeric`, is: ErrNotNumeric}},
		{"max", Max, []any{3, "1.5", nil, 2}, 2, want{val: 3}},
		{"max truncates", Max, []any{0.30000000000000004}, 1, want{val: 0.3}},
		{"max exact", Max, []any{"1e-30", 0}, 30, want{val: 1e-30}},
		{"max only nil", Max, []any{nil}, 2, want{val: 0}},
		{"max non-numeric", Max, []any{"x"}, 2, want{err: `decmath: max: "x" is not numeric`, is: ErrNotNumeric}},
		{"negative scale", Average, []any{1}, -1, want{err: "decmath: average: negative scale -1"}},
	}
	for _, tt := range tests {
		got, err := tt.f(tt.values, tt.scale)
		check(t, tt.name, got, err, tt.want)
	}
}

func TestDefaultScale(t *testing.T) {
	if DefaultScale != 16 {
		t.Fatalf("DefaultScale = %d", DefaultScale)
	}
}

func BenchmarkAdd(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Add(1.25, "2.5", DefaultScale); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDivide(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Divide(2, 3, DefaultScale, true); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSum(b *testing.B) {
	values := []any{0.1, 0.2, "0.3", 4, nil, int64(5)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Sum(values, DefaultScale); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDivideAgainstRat checks Divide, including the shortcut for scales
// beyond what a float64 can show, against exact rational arithmetic.
func TestDivideAgainstRat(t *testing.T) {
	lits := []string{"1", "2", "3", "7", "-10", "0.1", "1e-300", "123456789.987654321", "1e300", "9007199254740993", "-2.5e-10", "3e-320"}
	scales := []int{0, 1, 2, 16, 17, 300, 330, 400, 1200, 5000, math.MaxInt}
	for _, a := range lits {
		for _, b := range lits {
			ra, _ := new(big.Rat).SetString(a)
			rb, _ := new(big.Rat).SetString(b)
			q := new(big.Rat).Quo(ra, rb)
			for _, s := range scales {
				want, _ := q.Float64() // no truncation: right for huge scales
				if s <= 5000 {
					p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s)), nil)
					n := new(big.Int).Mul(q.Num(), p)
					n.Quo(n, q.Denom())
					want, _ = new(big.Rat).SetFrac(n, p).Float64()
				}
				got, err := Divide(a, b, s, true)
				if math.IsInf(want, 0) {
					if err == nil {
						t.Errorf("Divide(%s, %s, %d) = %v, want a range error", a, b, s, got)
					}
					continue
				}
				if err != nil || got != want {
					t.Errorf("Divide(%s, %s, %d) = %v, %v; want %v", a, b, s, got, err, want)
				}
			}
		}
	}
}
