package numlit

import (
	"math"
	"reflect"
	"strconv"
)

// The lenient conversions env and config share: a value of any scalar
// kind (IsScalar) to an integer, a float or a string. Strings follow the
// decimal-literal rules above; bools are 1 and 0.

// IsInt reports the signed integer kinds.
func IsInt(k reflect.Kind) bool { return k >= reflect.Int && k <= reflect.Int64 }

// IsUint reports the unsigned integer kinds.
func IsUint(k reflect.Kind) bool { return k >= reflect.Uint && k <= reflect.Uintptr }

// IsFloat reports the floating-point kinds.
func IsFloat(k reflect.Kind) bool { return k == reflect.Float32 || k == reflect.Float64 }

// IsScalar reports the kinds with one scalar meaning: bools, strings and
// numbers. Slices, maps, pointers and the rest have none.
func IsScalar(k reflect.Kind) bool {
	return k == reflect.Bool || k == reflect.String || IsInt(k) || IsUint(k) || IsFloat(k)
}

// Int converts a scalar: a string by LenientInt, a float truncated toward
// zero and an unsigned integer saturated at the int64 bounds, a bool to 1
// or 0.
func Int(v reflect.Value) int64 {
	switch k := v.Kind(); {
	case k == reflect.Bool:
		if v.Bool() {
			return 1
		}
		return 0
	case k == reflect.String:
		return LenientInt(v.String())
	case IsFloat(k):
		return TruncFloat(v.Float())
	case IsUint(k):
		return int64(min(v.Uint(), math.MaxInt64))
	}
	return v.Int()
}

// Float converts a scalar: a string by LenientFloat, a bool to 1 or 0.
func Float(v reflect.Value) float64 {
	switch k := v.Kind(); {
	case k == reflect.Bool:
		return float64(Int(v))
	case k == reflect.String:
		return LenientFloat(v.String())
	case IsFloat(k):
		return v.Float()
	case IsUint(k):
		return float64(v.Uint())
	}
	return float64(v.Int())
}

// String converts a scalar: a string as is, a bool to true or false, a
// number in its shortest form without an exponent.
func String(v reflect.Value) string {
	switch k := v.Kind(); {
	case k == reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case k == reflect.String:
		return v.String()
	case k == reflect.Float32:
		return strconv.FormatFloat(v.Float(), 'f', -1, 32)
	case k == reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'f', -1, 64)
	case IsUint(k):
		return strconv.FormatUint(v.Uint(), 10)
	}
	return strconv.FormatInt(v.Int(), 10)
}

// NonZero reports whether a number is not zero (NaN is not zero).
func NonZero(v reflect.Value) bool {
	switch k := v.Kind(); {
	case IsFloat(k):
		return v.Float() != 0
	case IsUint(k):
		return v.Uint() != 0
	}
	return v.Int() != 0
}
