package env_test

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/agentkit/charter/helpers/internal/numlit"
)

var numberSeeds = []string{
	"0", "-0", "12", "+12", " 12 ", "12abc", "1.9", "-1.9", "1e3", "1E-3", ".5", "5.", "-.5e+2",
	"9007199254740993", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
	"1e400", "-1e400", "1e-400", "0e999", "Inf", "-inf", "NaN", "0x10", "0x1p-2", "1_000", "0b1",
	"", " ", "\t", "e5", ".", "-", "1e", "1e+", "00012", "\u00a01",
	"179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368",
}

// ratTrunc is an independent oracle: the literal's exact value truncated
// toward zero, saturated to int64.
func ratTrunc(lit string) (int64, bool) {
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		return 0, false
	}
	q := new(big.Int).Quo(r.Num(), r.Denom())
	switch {
	case q.IsInt64():
		return q.Int64(), true
	case q.Sign() > 0:
		return math.MaxInt64, true
	}
	return math.MinInt64, true
}

func FuzzIntegerPrefix(f *testing.F) {
	for _, s := range numberSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := one(s)
		lenient, err := e.Integer("FOO", nil, true)
		if err != nil || lenient == nil {
			t.Fatalf("lenient Integer(%q) = %v, %v", s, lenient, err)
		}
		strict, serr := e.Integer("FOO", nil, false)
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			if *lenient != n || serr != nil || *strict != n {
				t.Fatalf("Integer(%q) = %d / %v, %v; strconv says %d", s, *lenient, strict, serr, n)
			}
		}
		if serr == nil {
			if _, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err != nil {
				t.Fatalf("strict Integer(%q) accepted what strconv rejects", s)
			}
		} else if !strings.HasPrefix(serr.Error(), "env: FOO: want integer, got ") {
			t.Fatalf("strict Integer(%q) error %q", s, serr)
		}
		// The lenient value is the exact truncation of the longest prefix.
		t2 := numlit.TrimLeftSpace(s)
		lit, n := numlit.Scan(t2)
		if n == 0 {
			if *lenient != 0 {
				t.Fatalf("Integer(%q) = %d without a number", s, *lenient)
			}
			return
		}
		if len(lit.Exp) > 4 {
			return // keep big.Rat cheap; saturation is covered by tests
		}
		if want, ok := ratTrunc(t2[:n]); ok && want != *lenient {
			t.Fatalf("Integer(%q) = %d, exact truncation is %d", s, *lenient, want)
		}
	})
}

func FuzzFloatPrefix(f *testing.F) {
	for _, s := range numberSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := one(s)
		lenient, err := e.Float("FOO", nil, true)
		if err != nil || lenient == nil {
			t.Fatalf("lenient Float(%q) = %v, %v", s, lenient, err)
		}
		strict, serr := e.Float("FOO", nil, false)
		want, perr := strconv.ParseFloat(s, 64)
		literal := numlit.IsLiteral(s)
		if perr == nil && literal {
			same := math.Float64bits(want) == math.Float64bits(*lenient)
			if !same || serr != nil || math.Float64bits(*strict) != math.Float64bits(want) {
				t.Fatalf("Float(%q) = %v / %v, %v; strconv says %v", s, *lenient, strict, serr, want)
			}
		}
		trimmed := numlit.TrimSpace(s)
		if serr == nil {
			if !numlit.IsLiteral(trimmed) || math.IsInf(*strict, 0) || math.IsNaN(*strict) {
				t.Fatalf("strict Float(%q) = %v, want an error", s, *strict)
			}
		} else if numlit.IsLiteral(trimmed) {
			if f, err := strconv.ParseFloat(trimmed, 64); err == nil {
				t.Fatalf("strict Float(%q) failed on finite literal %v: %v", s, f, serr)
			}
		}
		if math.IsNaN(*lenient) {
			t.Fatalf("Float(%q) = NaN", s)
		}
		// strconv's other spellings (Inf, NaN, 0x…, 1_000) are not numbers
		// here; strconv takes no whitespace, so s is its own trimmed form.
		if perr == nil && !literal && serr == nil {
			t.Fatalf("strict Float(%q) accepted a non-literal", s)
		}
	})
}
