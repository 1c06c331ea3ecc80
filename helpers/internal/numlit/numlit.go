// Package numlit scans the "decimal literal" that the helpers share: an
// optional sign, digits with an optional fraction ("5", "5.", ".5", "5.25"),
// then an optional exponent ("e"/"E", optional sign, digits). Inf, NaN, hex,
// octal prefixes and underscores are not numbers, although strconv accepts
// some of them; that is why the helpers scan here instead of asking strconv.
package numlit

import (
	"math"
	"strconv"
)

// Literal is a decimal literal split into its parts. Its fields are
// sub-slices of the scanned string, so scanning does not allocate.
type Literal struct {
	Neg  bool   // a leading '-'
	Int  string // digits before the point, possibly empty
	Frac string // digits after the point, possibly empty
	Exp  string // exponent with its optional sign, empty when absent
}

// Scan returns the longest decimal literal at the start of s and its length;
// n is 0 when s does not start with one.
func Scan(s string) (lit Literal, n int) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		lit.Neg = s[i] == '-'
		i++
	}
	start := i
	i = digits(s, i)
	lit.Int = s[start:i]
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		lit.Frac = s[i+1 : j]
		// A lone "." has no digits on either side and is not a number.
		if lit.Int != "" || lit.Frac != "" {
			i = j
		}
	}
	if lit.Int == "" && lit.Frac == "" {
		return Literal{}, 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		// "1e" and "1e+" end before the 'e': the exponent needs digits.
		if k := digits(s, j); k > j {
			lit.Exp = s[i+1 : k]
			i = k
		}
	}
	return lit, i
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// IsLiteral reports whether s is wholly a decimal literal (no whitespace).
func IsLiteral(s string) bool {
	_, n := Scan(s)
	return n > 0 && n == len(s)
}

// isSpace is ASCII whitespace as C's isspace defines it.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// TrimSpace removes leading and trailing ASCII whitespace. Unlike
// strings.TrimSpace it leaves Unicode spaces alone: they are not part of
// the literal grammar.
func TrimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// TrimLeftSpace removes leading ASCII whitespace.
func TrimLeftSpace(s string) string {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return s[i:]
}

// IsZero reports whether the literal's value is zero: every digit is 0,
// whatever the exponent.
func (l Literal) IsZero() bool {
	for _, d := range l.Int + l.Frac {
		if d != '0' {
			return false
		}
	}
	return true
}

// IsInteger reports whether the literal has neither a point nor an exponent.
func (l Literal) IsInteger() bool {
	return l.Frac == "" && l.Exp == "" && l.Int != ""
}

// exponent returns the exponent's value clamped to ±maxExp; beyond that
// every non-zero mantissa saturates an int64 or truncates to 0 anyway.
func (l Literal) exponent() int {
	const maxExp = 1 << 20
	s, neg := l.Exp, false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	e := 0
	for i := 0; i < len(s) && e < maxExp; i++ {
		e = e*10 + int(s[i]-'0')
	}
	e = min(e, maxExp)
	if neg {
		return -e
	}
	return e
}

// Int64 returns the literal's value truncated toward zero, saturated to the
// int64 bound of its sign. It works on the digits, never through a float,
// so "9007199254740993" and "9007199254740993.9" both give 9007199254740993.
func (l Literal) Int64() int64 {
	mant := l.Int + l.Frac
	lead := 0
	for lead < len(mant) && mant[lead] == '0' {
		lead++
	}
	mant = mant[lead:]
	if mant == "" {
		return 0
	}
	// point is where the decimal point falls within mant.
	point := len(l.Int) - lead + l.exponent()
	if point <= 0 {
		return 0
	}
	// mant starts with a non-zero digit, so 20 integer digits exceed 2^63.
	if point > 19 {
		return saturate(l.Neg)
	}
	var u uint64
	for i := range point {
		d := uint64(0)
		if i < len(mant) {
			d = uint64(mant[i] - '0')
		}
		u = u*10 + d
	}
	if l.Neg {
		if u > 1<<63 {
			return math.MinInt64
		}
		return -int64(u)
	}
	if u > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(u)
}

func saturate(neg bool) int64 {
	if neg {
		return math.MinInt64
	}
	return math.MaxInt64
}

// LenientInt is the lenient integer rule: skip leading whitespace, take the
// longest decimal-literal prefix, truncate toward zero and saturate; no
// prefix gives 0.
func LenientInt(s string) int64 {
	lit, n := Scan(TrimLeftSpace(s))
	if n == 0 {
		return 0
	}
	return lit.Int64()
}

// LenientFloat is the lenient float rule: the longest decimal-literal
// prefix after leading whitespace, as strconv.ParseFloat reads it (so
// "1e400" is +Inf); no prefix gives 0.
func LenientFloat(s string) float64 {
	s = TrimLeftSpace(s)
	_, n := Scan(s)
	if n == 0 {
		return 0
	}
	// A decimal literal is always valid syntax for ParseFloat; the only
	// possible error is ErrRange, and the ±Inf it returns then is wanted.
	f, _ := strconv.ParseFloat(s[:n], 64)
	return f
}

// TruncFloat truncates f toward zero, saturating at the int64 bounds; NaN
// is 0.
func TruncFloat(f float64) int64 {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt64: // float64(MaxInt64) rounds up to 2^63
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}
