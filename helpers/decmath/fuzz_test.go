package decmath

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/agentkit/charter/helpers/internal/numlit"
)

// truncOracle computes lit truncated toward zero at scale decimals with
// big.Rat, independently of package decimal.
// A zero mantissa is zero whatever its exponent, which may not fit an int64.
func truncOracle(lit string, scale int) float64 {
	mant, exp, hasExp := strings.Cut(strings.ToLower(lit), "e")
	r, ok := new(big.Rat).SetString(mant)
	if !ok {
		panic("oracle given a non-literal: " + lit)
	}
	if r.Sign() == 0 {
		return 0
	}
	if hasExp {
		e, err := strconv.Atoi(exp)
		if err != nil {
			panic("oracle given an exponent beyond int: " + lit)
		}
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(e, -e))), nil)
		if e >= 0 {
			r.Mul(r, new(big.Rat).SetInt(p))
		} else {
			r.Quo(r, new(big.Rat).SetInt(p))
		}
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
	q := new(big.Int).Mul(r.Num(), p)
	q.Quo(q, r.Denom()) // Quo truncates toward zero
	f, _ := new(big.Rat).SetFrac(q, p).Float64()
	return f
}

// sameAsAdd checks that the other operations agree with Add(x, 0, scale).
func sameAsAdd(t *testing.T, x any, scale int, got float64, err error) {
	t.Helper()
	others := map[string]func() (float64, error){
		"Subtract": func() (float64, error) { return Subtract(x, 0, scale) },
		"Multiply": func() (float64, error) { return Multiply(x, 1, scale) },
		"Divide":   func() (float64, error) { return Divide(x, 1, scale, true) },
		"Sum":      func() (float64, error) { return Sum([]any{nil, x}, scale) },
		"Average":  func() (float64, error) { return Average([]any{x}, scale) },
		"Min":      func() (float64, error) { return Min([]any{x}, scale) },
		"Max":      func() (float64, error) { return Max([]any{x, nil}, scale) },
	}
	for name, f := range others {
		g, e := f()
		if (e == nil) != (err == nil) || e == nil && math.Float64bits(g) != math.Float64bits(got) {
			t.Fatalf("%s(%#v) = %v, %v; Add gives %v, %v", name, x, g, e, got, err)
		}
	}
	// Compare has no float64 result, so only operand errors carry over.
	if c, e := Compare(x, x, scale); (e != nil) != errors.Is(err, ErrNotNumeric) || e == nil && c != 0 {
		t.Fatalf("Compare(%#v, itself) = %d, %v; Add error %v", x, c, e, err)
	}
}

func FuzzOperandString(f *testing.F) {
	for _, s := range []string{"0", "-0", "1.999", "-1.999", ".5", "5.", "-.5", " 1e-20 ", "1e308", "1.8e308", "-1e-400",
		"9007199254740993", "0.30000000000000004", "1e10000", "1e10001", "0e99999", "", " ", "abc", "Inf", "NaN",
		"0x10", "1_0", "1e", "12abc", "+.5e-3", "4.9e-324", "2.4703282292062328e-324"} {
		f.Add(s, uint16(2))
		f.Add(s, uint16(16))
	}
	f.Add("123.456", uint16(1100))
	f.Fuzz(func(t *testing.T, s string, sc uint16) {
		scale := int(sc % 1200)
		got, err := Add(s, 0, scale)
		sameAsAdd(t, s, scale, got, err)
		if math.Signbit(got) && got == 0 || math.IsNaN(got) || math.IsInf(got, 0) {
			t.Fatalf("Add(%q) = %v", s, got)
		}
		if s == "" {
			if err != nil || got != 0 {
				t.Fatalf(`Add("") = %v, %v`, got, err)
			}
			return
		}
		trimmed := numlit.TrimSpace(s)
		if !numlit.IsLiteral(trimmed) {
			if !errors.Is(err, ErrNotNumeric) {
				t.Fatalf("Add(%q) = %v, %v; want ErrNotNumeric", s, got, err)
			}
			return
		}
		if errors.Is(err, ErrNotNumeric) {
			if !strings.Contains(err.Error(), "exponent beyond") {
				t.Fatalf("Add(%q): literal rejected: %v", s, err)
			}
			return
		}
		want := truncOracle(trimmed, scale)
		if math.IsInf(want, 0) {
			if err == nil {
				t.Fatalf("Add(%q) = %v, want an out-of-range error", s, got)
			}
			return
		}
		if err != nil || got != want {
			t.Fatalf("Add(%q, 0, %d) = %v, %v; want %v", s, scale, got, err, want)
		}
	})
}

func FuzzOperandFloat(f *testing.F) {
	for _, v := range []float64{0, math.Copysign(0, -1), 0.1, -1.999, 1.0 / 3, math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, 1e21, math.NaN(), math.Inf(1), math.Inf(-1), 9007199254740993} {
		f.Add(v, uint16(2))
		f.Add(v, uint16(400))
	}
	f.Fuzz(func(t *testing.T, v float64, sc uint16) {
		scale := int(sc % 1200)
		got, err := Add(v, 0, scale)
		sameAsAdd(t, v, scale, got, err)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			if !errors.Is(err, ErrNotNumeric) {
				t.Fatalf("Add(%v) error %v, want ErrNotNumeric", v, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("Add(%v) error %v", v, err)
		}
		if want := truncOracle(strconv.FormatFloat(v, 'g', -1, 64), scale); got != want || got == 0 && math.Signbit(got) {
			t.Fatalf("Add(%v, 0, %d) = %v, want %v", v, scale, got, want)
		}
		// With every decimal kept, the shortest decimal round-trips.
		if scale >= 342 && got != v {
			t.Fatalf("Add(%v, 0, %d) = %v, want the value itself", v, scale, got)
		}
	})
}
