package decmath

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/agentkit/charter/helpers/internal/numlit"
	"github.com/shopspring/decimal"
)

// DefaultScale is the number of decimals kept when callers have no better
// choice; it is the reference's default.
const DefaultScale = 16

var (
	// ErrNotNumeric is wrapped by every error about an operand that is not
	// a number this package accepts.
	ErrNotNumeric = errors.New("not numeric")
	// ErrDivisionByZero is wrapped by Divide's error for a zero divisor.
	ErrDivisionByZero = errors.New("division by zero")
)

// maxExp bounds operand exponents: beyond it every float64 result is 0 or
// out of range anyway, while big.Int work would grow with the exponent. It
// matches decimal.MaxDecodeExponent's default.
const maxExp = 10000

// Add returns a+b truncated toward zero at scale decimals.
func Add(a, b any, scale int) (float64, error) {
	return binary("add", a, b, scale, decimal.Decimal.Add)
}

// Subtract returns a-b truncated toward zero at scale decimals.
func Subtract(a, b any, scale int) (float64, error) {
	return binary("subtract", a, b, scale, decimal.Decimal.Sub)
}

// Multiply returns a×b truncated toward zero at scale decimals.
func Multiply(a, b any, scale int) (float64, error) {
	return binary("multiply", a, b, scale, decimal.Decimal.Mul)
}

func binary(op string, a, b any, scale int, f func(x, y decimal.Decimal) decimal.Decimal) (float64, error) {
	x, y, err := operands(op, a, b, scale)
	if err != nil {
		return 0, err
	}
	return result(op, f(x, y).Truncate(precision(scale)))
}

// Divide returns a/b truncated toward zero at scale decimals. A zero divisor
// in any spelling (0, "0.0", "-0", nil, "") is ErrDivisionByZero when
// errOnZero is set, else the result is 0.
func Divide(a, b any, scale int, errOnZero bool) (float64, error) {
	x, y, err := operands("divide", a, b, scale)
	if err != nil {
		return 0, err
	}
	if y.IsZero() {
		if errOnZero {
			return 0, fmt.Errorf("decmath: divide %s by %s: %w", describe(a), describe(b), ErrDivisionByZero)
		}
		return 0, nil
	}
	return result("divide", quotient(x, y, scale))
}

// Compare truncates a and b at scale decimals, then returns -1, 0 or 1 as a
// is less than, equal to or greater than b.
func Compare(a, b any, scale int) (int, error) {
	x, y, err := operands("compare", a, b, scale)
	if err != nil {
		return 0, err
	}
	p := precision(scale)
	return x.Truncate(p).Cmp(y.Truncate(p)), nil
}

// Sum returns the exact sum of the non-nil values, truncated at scale.
func Sum(values []any, scale int) (float64, error) {
	ds, err := entries("sum", values, scale)
	if err != nil || len(ds) == 0 {
		return 0, err
	}
	return result("sum", sum(ds).Truncate(precision(scale)))
}

// Average returns the exact sum of the non-nil values divided by their
// count, truncated at scale.
func Average(values []any, scale int) (float64, error) {
	ds, err := entries("average", values, scale)
	if err != nil || len(ds) == 0 {
		return 0, err
	}
	return result("average", quotient(sum(ds), decimal.NewFromInt(int64(len(ds))), scale))
}

// Min returns the smallest non-nil value, compared exactly, truncated at
// scale.
func Min(values []any, scale int) (float64, error) {
	return extreme("min", values, scale, -1)
}

// Max returns the largest non-nil value, compared exactly, truncated at
// scale.
func Max(values []any, scale int) (float64, error) {
	return extreme("max", values, scale, 1)
}

func extreme(op string, values []any, scale, want int) (float64, error) {
	ds, err := entries(op, values, scale)
	if err != nil || len(ds) == 0 {
		return 0, err
	}
	best := ds[0]
	for _, d := range ds[1:] {
		if d.Cmp(best) == want {
			best = d
		}
	}
	return result(op, best.Truncate(precision(scale)))
}

func sum(ds []decimal.Decimal) decimal.Decimal {
	acc := ds[0]
	for _, d := range ds[1:] {
		acc = acc.Add(d)
	}
	return acc
}

func checkScale(op string, scale int) error {
	if scale < 0 {
		return fmt.Errorf("decmath: %s: negative scale %d", op, scale)
	}
	return nil
}

// precision turns a scale into decimal's int32 precision. Clamping is exact:
// operand exponents are bounded far below, so truncating at MaxInt32
// decimals is already a no-op.
func precision(scale int) int32 {
	return int32(min(scale, math.MaxInt32))
}

func operands(op string, a, b any, scale int) (x, y decimal.Decimal, err error) {
	if err = checkScale(op, scale); err != nil {
		return
	}
	if x, err = operand(op, a); err != nil {
		return
	}
	y, err = operand(op, b)
	return
}

// entries parses the non-nil values in order.
func entries(op string, values []any, scale int) ([]decimal.Decimal, error) {
	if err := checkScale(op, scale); err != nil {
		return nil, err
	}
	ds := make([]decimal.Decimal, 0, len(values))
	for _, v := range values {
		if v == nil {
			continue
		}
		d, err := operand(op, v)
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	return ds, nil
}

// quotient returns x/y truncated toward zero at scale decimals, or at fewer
// decimals when those cannot change the float64 result. Let D be the
// quotient's denominator in lowest terms: if its expansion ends, it ends
// within bitlen(D) decimals; if not, x/y is at least 1/(D·2^1075) away from
// every float64 rounding boundary, so truncating beyond log10(D)+324
// decimals lands in the same rounding interval. 4 bits per digit bound D.
func quotient(x, y decimal.Decimal, scale int) decimal.Decimal {
	shift := max(0, int(y.Exponent())-int(x.Exponent()))
	limit := 4*(y.NumDigits()+shift) + 1100
	q, _ := x.QuoRem(y, int32(min(scale, limit)))
	return q
}

// operand converts one value; see the package documentation for the rules.
func operand(op string, v any) (decimal.Decimal, error) {
	switch x := v.(type) {
	case nil:
		return decimal.Zero, nil
	case string:
		return parse(op, x, v)
	case json.Number:
		return parse(op, string(x), v)
	case decimal.Decimal:
		return bounded(op, x, v)
	case int:
		return decimal.NewFromInt(int64(x)), nil
	case int8:
		return decimal.NewFromInt(int64(x)), nil
	case int16:
		return decimal.NewFromInt(int64(x)), nil
	case int32:
		return decimal.NewFromInt(int64(x)), nil
	case int64:
		return decimal.NewFromInt(x), nil
	case uint:
		return decimal.NewFromUint64(uint64(x)), nil
	case uint8:
		return decimal.NewFromUint64(uint64(x)), nil
	case uint16:
		return decimal.NewFromUint64(uint64(x)), nil
	case uint32:
		return decimal.NewFromUint64(uint64(x)), nil
	case uint64:
		return decimal.NewFromUint64(x), nil
	case uintptr:
		return decimal.NewFromUint64(uint64(x)), nil
	case float32:
		if f := float64(x); math.IsNaN(f) || math.IsInf(f, 0) {
			return decimal.Zero, notNumeric(op, v)
		}
		// The shortest decimal that round-trips as a float32, not as the
		// float64 it widens to: float32(0.1) is 0.1 here.
		return decimal.NewFromFloat32(x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return decimal.Zero, notNumeric(op, v)
		}
		return decimal.NewFromFloat(x), nil
	}
	return decimal.Zero, notNumeric(op, v)
}

func parse(op, s string, v any) (decimal.Decimal, error) {
	if s == "" {
		return decimal.Zero, nil
	}
	t := numlit.TrimSpace(s)
	lit, n := numlit.Scan(t)
	if n == 0 || n != len(t) {
		return decimal.Zero, notNumeric(op, v)
	}
	if lit.IsZero() {
		return decimal.Zero, nil // "0e99999" is zero, not out of range
	}
	d, err := decimal.NewFromString(t)
	if err != nil {
		// The grammar is already checked, so only the exponent can fail.
		return decimal.Zero, rangeErr(op, v)
	}
	return bounded(op, d, v)
}

func bounded(op string, d decimal.Decimal, v any) (decimal.Decimal, error) {
	if e := d.Exponent(); !d.IsZero() && (e > maxExp || e < -maxExp) {
		return decimal.Zero, rangeErr(op, v)
	}
	return d, nil
}

// result converts a truncated exact result to the nearest float64.
func result(op string, d decimal.Decimal) (float64, error) {
	f, _ := d.Float64()
	if math.IsInf(f, 0) {
		return 0, fmt.Errorf("decmath: %s: result is beyond the float64 range", op)
	}
	if f == 0 {
		return 0, nil // never -0
	}
	return f, nil
}

func describe(v any) string { return fmt.Sprintf("%#v", v) }

func notNumeric(op string, v any) error {
	return fmt.Errorf("decmath: %s: %s is %w", op, describe(v), ErrNotNumeric)
}

func rangeErr(op string, v any) error {
	return fmt.Errorf("decmath: %s: %s has an exponent beyond ±%d: %w", op, describe(v), maxExp, ErrNotNumeric)
}
