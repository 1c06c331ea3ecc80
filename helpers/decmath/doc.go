// Package decmath does exact decimal arithmetic on loosely typed operands and
// returns float64 results truncated toward zero at a given scale. It is the
// Go form of the seed's MathHelper, built on github.com/shopspring/decimal:
//
//	MathHelper::add       → Add
//	MathHelper::subtract  → Subtract
//	MathHelper::multiply  → Multiply
//	MathHelper::divide    → Divide
//	MathHelper::compare   → Compare
//	MathHelper::sum       → Sum
//	MathHelper::average   → Average
//	MathHelper::min       → Min
//	MathHelper::max       → Max
//
// DefaultScale is the reference's default $scale (16).
//
// Operands: nil and "" are 0; Go integers are exact; floats are read as their
// shortest round-trip decimal (strconv.FormatFloat(v, 'g', -1, 64)), not the
// 14 significant digits the reference keeps, so Add(1.0/3, 1.0/3, 16) is
// 0.6666666666666666. Strings are trimmed of ASCII whitespace and must be a
// decimal literal (optional sign, digits with an optional fraction, optional
// exponent: ".5", "5.", "-.5", "1e-20"); decimal.Decimal and json.Number are
// accepted too. Anything else — blank strings, bools, NaN, ±Inf, and
// literals whose decimal exponent lies beyond ±10000, which no float64
// result needs and which would cost unbounded time — is ErrNotNumeric.
// Checks run in order: the scale, then the operands left to right.
//
// Results are computed exactly, truncated toward zero (never rounded) at
// scale decimals, then converted to the nearest float64; -0 becomes 0 and a
// result beyond the float64 range is an error, never ±Inf. The aggregates
// skip nil entries, return 0 for no entries, and reject non-numeric entries
// instead of counting them as 0 as the reference does. Divide by any zero is
// ErrDivisionByZero when errOnZero is set and 0 otherwise; the reference
// throws for some zero spellings even with the flag off.
package decmath
