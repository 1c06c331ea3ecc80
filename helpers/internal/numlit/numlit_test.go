package numlit

import (
	"math"
	"testing"
)

func TestScan(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want Literal
	}{
		{"5", 1, Literal{Int: "5"}},
		{"5.", 2, Literal{Int: "5"}},
		{".5", 2, Literal{Frac: "5"}},
		{"5.25", 4, Literal{Int: "5", Frac: "25"}},
		{"-5.25e+3", 8, Literal{Neg: true, Int: "5", Frac: "25", Exp: "+3"}},
		{"+.5E-3x", 6, Literal{Frac: "5", Exp: "-3"}},
		{"12abc", 2, Literal{Int: "12"}},
		{"1e", 1, Literal{Int: "1"}},
		{"1e+", 1, Literal{Int: "1"}},
		{"1.e5", 4, Literal{Int: "1", Exp: "5"}},
		{"0x10", 1, Literal{Int: "0"}},
		{"1_000", 1, Literal{Int: "1"}},
		{"", 0, Literal{}},
		{".", 0, Literal{}},
		{"-", 0, Literal{}},
		{"-.e5", 0, Literal{}},
		{"e5", 0, Literal{}},
		{"Inf", 0, Literal{}},
		{"NaN", 0, Literal{}},
		{" 1", 0, Literal{}},
	}
	for _, tt := range tests {
		got, n := Scan(tt.in)
		if n != tt.n || got != tt.want {
			t.Errorf("Scan(%q) = %+v, %d; want %+v, %d", tt.in, got, n, tt.want, tt.n)
		}
	}
}

func TestIsLiteral(t *testing.T) {
	tests := map[string]bool{
		"5": true, "5.": true, ".5": true, "-.5": true, "+5e-3": true, "007": true,
		"": false, " 5": false, "5 ": false, "5e": false, "inf": false, "0x1": false, "1_0": false,
	}
	for in, want := range tests {
		if got := IsLiteral(in); got != want {
			t.Errorf("IsLiteral(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestTrimSpace(t *testing.T) {
	tests := map[string]string{
		" \t\n\v\f\r5 \t\n\v\f\r": "5",
		"\u00a05":                 "\u00a05", // not ASCII whitespace
		"":                        "",
		"   ":                     "",
		"\x005":                   "\x005", // NUL is not whitespace here
	}
	for in, want := range tests {
		if got := TrimSpace(in); got != want {
			t.Errorf("TrimSpace(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLenientInt(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"12abc", 12},
		{" 12", 12},
		{"\t\n-7x", -7},
		{"1.9", 1},
		{"-1.9", -1},
		{"1e3", 1000},
		{"1.5e1", 15},
		{"123e-2", 1},
		{"-0.5", 0},
		{".9", 0},
		{"5.", 5},
		{"abc", 0},
		{"", 0},
		{"1e400", math.MaxInt64},
		{"-1e400", math.MinInt64},
		{"1e99999999999999999999", math.MaxInt64},
		{"1e-99999999999999999999", 0},
		{"0e99999999999999999999", 0},
		{"9007199254740993", 9007199254740993},
		{"9007199254740993.9", 9007199254740993},
		{"9223372036854775807", math.MaxInt64},
		{"9223372036854775808", math.MaxInt64},
		{"-9223372036854775808", math.MinInt64},
		{"-9223372036854775809", math.MinInt64},
		{"92233720368547758.07e2", math.MaxInt64},
		{"0000000000000000000000000012", 12},
		{"0.00000000000000000000000012e26", 12},
		{"0x10", 0},
		{"1_000", 1},
		{"Inf", 0},
	}
	for _, tt := range tests {
		if got := LenientInt(tt.in); got != tt.want {
			t.Errorf("LenientInt(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestLenientFloat(t *testing.T) {
	tests := []struct {
		in   string
		want float64
	}{
		{"1.23e-4", 0.000123},
		{" 2.5x", 2.5},
		{"abc", 0},
		{"1e400", math.Inf(1)},
		{"-1e400", math.Inf(-1)},
		{"1e-400", 0},
		{"Inf", 0},
		{"NaN", 0},
		{"0x1p3", 0},
		{"1_0", 1},
		{".5", 0.5},
		{"5.", 5},
	}
	for _, tt := range tests {
		if got := LenientFloat(tt.in); got != tt.want {
			t.Errorf("LenientFloat(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestIsZero(t *testing.T) {
	tests := map[string]bool{"0": true, "-0.0": true, "0e99": true, ".000": true, "0.001": false, "1e-400": false}
	for in, want := range tests {
		lit, _ := Scan(in)
		if got := lit.IsZero(); got != want {
			t.Errorf("IsZero(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestTruncFloat(t *testing.T) {
	tests := []struct {
		in   float64
		want int64
	}{
		{1.9, 1},
		{-1.9, -1},
		{math.NaN(), 0},
		{math.Inf(1), math.MaxInt64},
		{math.Inf(-1), math.MinInt64},
		{1e19, math.MaxInt64},
		{-9223372036854775808, math.MinInt64},
		{9007199254740992, 9007199254740992},
	}
	for _, tt := range tests {
		if got := TruncFloat(tt.in); got != tt.want {
			t.Errorf("TruncFloat(%v) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
