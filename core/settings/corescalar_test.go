package settings

import (
	"regexp"
	"testing"
)

// The core schema's expressions as the spec writes them: the hand-written
// matchers must agree with them on every string.
var (
	oracleNull  = regexp.MustCompile(`^(?:null|Null|NULL|~|)$`)
	oracleBool  = regexp.MustCompile(`^(?:true|True|TRUE|false|False|FALSE)$`)
	oracleInt   = regexp.MustCompile(`^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$`)
	oracleFloat = regexp.MustCompile(`^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
)

func checkCoreScalar(t *testing.T, v string) {
	t.Helper()
	for _, c := range []struct {
		name string
		re   *regexp.Regexp
		got  func(string) bool
	}{{"null", oracleNull, isCoreNull}, {"bool", oracleBool, isCoreBool}, {"int", oracleInt, isCoreInt}, {"float", oracleFloat, isCoreFloat}} {
		if want := c.re.MatchString(v); c.got(v) != want {
			t.Fatalf("%s(%q) = %v, the core schema says %v", c.name, v, !want, want)
		}
	}
}

// Every string up to five bytes over the bytes that matter, and the words.
func TestCoreScalarMatchesSchema(t *testing.T) {
	alphabet := []byte("0178a9xoeE.+-fF ")
	var walk func(prefix []byte, n int)
	walk = func(prefix []byte, n int) {
		checkCoreScalar(t, string(prefix))
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			walk(append(prefix, c), n-1)
		}
	}
	walk(nil, 5)
	for _, v := range []string{"null", "Null", "NULL", "nULL", "~", "~~", "true", "TRUE", "tRUE", "false", "False",
		".inf", "-.inf", "+.Inf", ".INF", "-.nan", ".nan", ".NaN", ".NAN", ".nAn", "inf", "1e", "1e+", ".e1", "0x", "0o",
		"0o8", "0xG", "+0x1", "-0o7", "1.5\n", "12_3", "1.2.3", "1..", "balanced", "é1", "1\x00"} {
		checkCoreScalar(t, v)
	}
}

func FuzzCoreScalar(f *testing.F) {
	for _, v := range []string{"1.5e-3", ".inf", "0x1F", "null", "-.5"} {
		f.Add(v)
	}
	f.Fuzz(checkCoreScalar)
}
