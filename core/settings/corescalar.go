package settings

import "slices"

// The YAML 1.2 core schema's resolution (spec 1.2.2, §10.3.2), matched by
// hand: its four regular expressions cost a settings read more to compile
// than to run (issue 39). corescalar_test.go holds them as the oracle.

func isCoreNull(v string) bool {
	return slices.Contains([]string{"null", "Null", "NULL", "~", ""}, v)
}

func isCoreBool(v string) bool {
	return slices.Contains([]string{"true", "True", "TRUE", "false", "False", "FALSE"}, v)
}

// isCoreInt: [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+
func isCoreInt(v string) bool {
	if len(v) > 2 && v[0] == '0' && v[1] == 'o' && allOf(v[2:], isOctal) {
		return true
	}
	if len(v) > 2 && v[0] == '0' && v[1] == 'x' && allOf(v[2:], isHex) {
		return true
	}
	return allOf(trimSign(v), isDigit)
}

// isCoreFloat: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
// | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN)
func isCoreFloat(v string) bool {
	if slices.Contains([]string{".nan", ".NaN", ".NAN"}, v) {
		return true
	}
	v = trimSign(v)
	if slices.Contains([]string{".inf", ".Inf", ".INF"}, v) {
		return true
	}
	mant, exp := v, ""
	if i := indexExp(v); i >= 0 {
		mant, exp = v[:i], v[i+1:]
		if !allOf(trimSign(exp), isDigit) {
			return false
		}
	}
	whole, frac, dot := cut(mant, '.')
	if !dot {
		return allOf(whole, isDigit)
	}
	if whole == "" {
		return allOf(frac, isDigit)
	}
	return allOf(whole, isDigit) && (frac == "" || allOf(frac, isDigit))
}

func indexExp(v string) int {
	for i := 0; i < len(v); i++ {
		if v[i] == 'e' || v[i] == 'E' {
			return i
		}
	}
	return -1
}

func cut(s string, sep byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func trimSign(v string) string {
	if v != "" && (v[0] == '-' || v[0] == '+') {
		return v[1:]
	}
	return v
}

// allOf reports whether s is not empty and every byte of it is ok.
func allOf(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return s != ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isOctal(c byte) bool { return '0' <= c && c <= '7' }
func isHex(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}
