package gates

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func TestParseReportFixtures(t *testing.T) {
	for _, tc := range []struct {
		file           string
		format         string
		covered, total int64
		shown          string // at DisplayScale
	}{
		// a.go's first block is covered by its second line; c.go's block by its first.
		{"go-merged.out", FormatGo, 6, 9, "66.66"},
		// a.js counts by LF/LH (10/7), not its three DA lines; b.js by
		// distinct DA lines: 4 lines, 2 and 3 covered.
		{"lcov-mixed.info", FormatLCOV, 9, 14, "64.28"},
		{"cobertura-totals.xml", FormatCobertura, 3, 8, "37.5"},
		// The <method> copy of line 3 is not counted again.
		{"cobertura-lines.xml", FormatCobertura, 2, 4, "50"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", "coverage", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st, err := ParseReport(f)
			if err != nil {
				t.Fatal(err)
			}
			if st.Format != tc.format || st.Covered != tc.covered || st.Total != tc.total {
				t.Fatalf("got %+v, want %s %d/%d", st, tc.format, tc.covered, tc.total)
			}
			if got := st.Percent(DisplayScale).String(); got != tc.shown {
				t.Fatalf("percent %s, want %s", got, tc.shown)
			}
		})
	}
}

func TestMeetsIsExact(t *testing.T) {
	two3 := Stats{Covered: 2, Total: 3} // 66.666…
	for _, tc := range []struct {
		min  string
		want bool
	}{
		{"66.66", true}, {"66.666666666666", true}, {"66.6666666666666666666666666667", false},
		{"66.67", false}, {"0", true}, {"100", false},
	} {
		if got := two3.Meets(decimal.RequireFromString(tc.min)); got != tc.want {
			t.Errorf("2/3 meets %s: %v, want %v", tc.min, got, tc.want)
		}
	}
	all := Stats{Covered: 7, Total: 7}
	if !all.Meets(decimal.RequireFromString("100")) || all.Percent(2).String() != "100" {
		t.Fatalf("7/7: %s", all.Percent(2))
	}
}

// The shown percentage has the minimum's decimals when it has more, so that
// what a user reads compares with the minimum as the exact value does.
func TestShownPercentFollowsMin(t *testing.T) {
	two3 := Stats{Covered: 2, Total: 3}
	for min, want := range map[string]string{
		"80": "66.66", "66.6667": "66.6666", "66.66660": "66.6666", "1.5": "66.66",
	} {
		if got := two3.ShownPercent(decimal.RequireFromString(min)).String(); got != want {
			t.Errorf("min %s: shown %s, want %s", min, got, want)
		}
	}
}

func TestParseReportErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		line           int
	}{
		{"empty", "", "the report is empty", 0},
		{"blank", " \n\n", "the report is empty", 0},
		{"unknown", "hello\n", "not a coverage report", 0},
		{"go no stmts", "mode: set\n", "counts no statements", 0},
		{"go bad line", "mode: set\nx.go:1.1,2.2 1\n", "not a cover profile line", 2},
		{"go bad range", "mode: set\nx.go:1.1-2.2 1 1\n", "not a cover profile line", 2},
		{"go negative", "mode: set\nx.go:1.1,2.2 1 -1\n", "not a cover profile line", 2},
		{"go inconsistent", "mode: set\nx.go:1.1,2.2 1 0\nx.go:1.1,2.2 2 1\n", "inconsistent statement count", 3},
		{"go modes", "mode: set\nx.go:1.1,2.2 1 0\nmode: count\n", "different modes", 3},
		{"go empty mode", "mode: \n", "empty mode", 1},
		{"lcov truncated", "TN:\nSF:a\nDA:1,1\n", "no end_of_record", 3},
		{"lcov lh>lf", "SF:a\nLF:1\nLH:2\nend_of_record\n", "more lines hit", 4},
		{"lcov bad DA", "SF:a\nDA:x,1\nend_of_record\n", "DA: wants line,count", 2},
		{"lcov DA outside", "TN:\nDA:1,1\n", "outside a record", 2},
		{"lcov nested SF", "SF:a\nSF:b\n", "before the end_of_record", 2},
		{"lcov junk", "SF:a\nthis is not lcov\n", "not an LCOV line", 2},
		{"lcov no lines", "SF:a\nend_of_record\n", "counts no statements", 0},
		{"lcov long line", "SF:" + strings.Repeat("a", maxLine+10) + "\n", "longer than", 1},
		{"xml not coverage", "<report/>", "not <coverage>", 1},
		{"xml truncated", "<coverage><packages>", "invalid XML", 1},
		{"xml bad totals", `<coverage lines-valid="x" lines-covered="1"/>`, "not counts", 1},
		{"xml totals", `<coverage lines-valid="1" lines-covered="2"/>`, "more lines covered", 1},
		{"xml no hits", "<coverage>\n<class><line number=\"1\"/></class></coverage>", "without a hits", 2},
		{"xml deep", "<coverage>" + strings.Repeat("<a>", maxDepth+1), "nested deeper", 1},
		{"xml no lines", "<coverage></coverage>", "counts no statements", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseReport(strings.NewReader(tc.in))
			var re *ReportError
			if !errors.As(err, &re) {
				t.Fatalf("error %v (%T), want a ReportError", err, err)
			}
			if !strings.Contains(err.Error(), tc.want) || re.Line != tc.line {
				t.Fatalf("error %q (line %d), want %q on line %d", err, re.Line, tc.want, tc.line)
			}
		})
	}
}

func TestParseReportTolerates(t *testing.T) {
	for name, tc := range map[string]struct {
		in             string
		covered, total int64
	}{
		"go crlf and blank lines": {"mode: count\r\n\r\nx.go:1.1,2.2 2 18446744073709551616\r\n", 2, 2},
		"go file with colon":      {"mode: atomic\nC:/src/x.go:1.1,2.2 1 0\n", 0, 1},
		"lcov bom and spaces":     {"\xef\xbb\xbfSF:a\nDA:1,-1\nDA:2,3\nend_of_record \n", 1, 2},
		"lcov far lines":          {"SF:a\nDA:5000000,0\nDA:5000000,2\nDA:1,0\nDA:1048576,1\nDA:1048575,0\nend_of_record\n", 2, 4},
		"lcov records apart":      {"SF:a\nDA:1,1\nDA:9000,1\nend_of_record\nSF:b\nDA:1,0\nDA:9000,0\nend_of_record\n", 2, 4},
		"xml latin1":              {`<?xml version="1.0" encoding="ISO-8859-1"?><coverage><class><line hits="0"/><line hits="2"/></class></coverage>`, 1, 2},
		"xml namespace attr":      {`<coverage xmlns:x="u" x:lines-valid="9"><class><line hits="1"/></class></coverage>`, 1, 1},
	} {
		t.Run(name, func(t *testing.T) {
			st, err := ParseReport(strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if st.Covered != tc.covered || st.Total != tc.total {
				t.Fatalf("got %d/%d, want %d/%d", st.Covered, st.Total, tc.covered, tc.total)
			}
		})
	}
}

// A forged count must not wrap around.
func TestParseReportOverflow(t *testing.T) {
	in := "SF:a\nLF:999999999999999999\nLH:0\nend_of_record\n" +
		"SF:b\nLF:999999999999999999\nLH:0\nend_of_record\n" +
		strings.Repeat("SF:c\nLF:999999999999999999\nLH:0\nend_of_record\n", 20)
	if _, err := ParseReport(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Fatalf("err = %v", err)
	}
}
