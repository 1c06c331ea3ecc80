package numlit

import (
	"math"
	"reflect"
	"testing"
)

func TestScalarConversions(t *testing.T) {
	tests := []struct {
		in      any
		i       int64
		f       float64
		s       string
		nonZero bool // numbers only
	}{
		{true, 1, 1, "true", false},
		{false, 0, 0, "false", false},
		{" 12abc", 12, 12, " 12abc", false},
		{"1e400", math.MaxInt64, math.Inf(1), "1e400", false},
		{int8(-3), -3, -3, "-3", true},
		{uint64(math.MaxUint64), math.MaxInt64, math.MaxUint64, "18446744073709551615", true},
		{uint(0), 0, 0, "0", false},
		{-1.9, -1, -1.9, "-1.9", true},
		{float32(0.1), 0, float64(float32(0.1)), "0.1", true},
		{1e21, math.MaxInt64, 1e21, "1000000000000000000000", true},
		{math.NaN(), 0, math.NaN(), "NaN", true},
	}
	for _, tt := range tests {
		v := reflect.ValueOf(tt.in)
		if !IsScalar(v.Kind()) {
			t.Errorf("%T is not scalar", tt.in)
		}
		if got := Int(v); got != tt.i {
			t.Errorf("Int(%#v) = %d, want %d", tt.in, got, tt.i)
		}
		if got := Float(v); got != tt.f && !(got != got && tt.f != tt.f) {
			t.Errorf("Float(%#v) = %v, want %v", tt.in, got, tt.f)
		}
		if got := String(v); got != tt.s {
			t.Errorf("String(%#v) = %q, want %q", tt.in, got, tt.s)
		}
		if k := v.Kind(); IsInt(k) || IsUint(k) || IsFloat(k) {
			if got := NonZero(v); got != tt.nonZero {
				t.Errorf("NonZero(%#v) = %v", tt.in, got)
			}
		}
	}
	for _, x := range []any{[]int{1}, map[string]int{}, &struct{}{}, nil} {
		if IsScalar(reflect.ValueOf(x).Kind()) {
			t.Errorf("%T counts as scalar", x)
		}
	}
}
