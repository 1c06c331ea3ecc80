package gates

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// fuzzParser checks what must hold for any input: no panic, an error of the
// documented type, and counts that make a percentage between 0 and 100.
func fuzzParser(f *testing.F, seeds []string, parse func(*bufio.Reader) (Stats, error)) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := parse(bufio.NewReader(bytes.NewReader(data)))
		if err != nil {
			var re *ReportError
			if !errors.As(err, &re) {
				t.Fatalf("error of the wrong type %T: %v", err, err)
			}
			return
		}
		if st.Covered < 0 || st.Total < 0 || st.Covered > st.Total {
			t.Fatalf("impossible counts %+v", st)
		}
		// The full path (detection, empty check) must agree or refuse.
		if all, err := ParseReport(bytes.NewReader(data)); err == nil && all.Format == st.Format && all != st {
			t.Fatalf("ParseReport %+v, parser %+v", all, st)
		}
	})
}

func fixture(f *testing.F, name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", "coverage", name))
	if err != nil {
		f.Fatal(err)
	}
	return string(b)
}

func FuzzParseGo(f *testing.F) {
	fuzzParser(f, []string{
		fixture(f, "go-merged.out"), "mode: set\n", "mode: count\nx.go:1.1,2.2 3 0\nx.go:1.1,2.2 3 7\n",
		"mode: set\nx:1.1,1.1 0 0", "mode: set\nmode: set\n:1.1,2.2 1 1\n",
	}, parseGo)
}

func FuzzParseLCOV(f *testing.F) {
	fuzzParser(f, []string{
		fixture(f, "lcov-mixed.info"), "SF:a\nend_of_record\n", "SF:a\nLF:3\nLH:1\nDA:1,1\nend_of_record\n",
		"TN:\nSF:\nDA:0,0,x\nend_of_record", "SF:a\nDA:1,99999999999999999999999\nend_of_record\n",
	}, parseLCOV)
}

func FuzzParseCobertura(f *testing.F) {
	fuzzParser(f, []string{
		fixture(f, "cobertura-totals.xml"), fixture(f, "cobertura-lines.xml"),
		`<coverage lines-valid="3" lines-covered="1"/>`, `<coverage><class><methods><line hits="1"/></methods></class></coverage>`,
		`<coverage><class><line hits="0"/></class>`, `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><coverage/>`,
	}, parseCobertura)
}
