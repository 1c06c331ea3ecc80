package gates

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"math/big"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/agentkit/charter/core"
)

// Report formats charter recognises, by content.
const (
	FormatGo        = "go"        // a Go cover profile (go test -coverprofile)
	FormatLCOV      = "lcov"      // LCOV tracefile (istanbul/nyc, c8, lcov, grcov, …)
	FormatCobertura = "cobertura" // Cobertura XML (coverage.py, JaCoCo converters, coverlet, …)
)

// DisplayScale is how many decimals a percentage is shown with, unless the
// minimum it is compared with has more. Shown values are truncated, never
// rounded up, so a shown percentage is never more than the real one, and
// "shown ≥ min" holds exactly when "real ≥ min" does.
const DisplayScale = 2

// maxLine bounds one line of a text report: a longer line is malformed,
// which keeps memory constant whatever the file holds.
const maxLine = 64 << 10

// Stats is what a coverage report says: statements (or lines, for formats
// that count lines) covered and in all.
type Stats struct {
	Format  string
	Covered int64
	Total   int64
}

// ReportError is a report charter could not use: unreadable, malformed, of
// an unknown format or empty. Line is 0 when the problem has no line.
type ReportError struct {
	Line   int
	Reason string
}

// Code names the error for the CLI's exit table and the HTTP status table.
func (e *ReportError) Code() string { return core.CodeMalformedReport }

func (e *ReportError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Reason)
	}
	return e.Reason
}

func malformed(line int, format string, args ...any) error {
	return &ReportError{Line: line, Reason: fmt.Sprintf(format, args...)}
}

// ParseReport reads a coverage report, detects its format from the first
// bytes and counts it in one streaming pass. A report with no statements is
// an error: it proves nothing.
func ParseReport(r io.Reader) (Stats, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(512)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return Stats{}, &ReportError{Reason: "read: " + err.Error()}
	}
	if bytes.HasPrefix(head, []byte(bom)) {
		br.Discard(len(bom))
		head = head[len(bom):]
	}
	var st Stats
	switch detect(head) {
	case FormatGo:
		st, err = parseGo(br)
	case FormatLCOV:
		st, err = parseLCOV(br)
	case FormatCobertura:
		st, err = parseCobertura(br)
	default:
		if len(bytes.TrimSpace(head)) == 0 {
			return Stats{}, &ReportError{Reason: "the report is empty"}
		}
		return Stats{}, &ReportError{Reason: "not a coverage report charter knows: expected a Go cover profile (mode: …), LCOV (TN:/SF: records) or Cobertura XML (<coverage …>)"}
	}
	if err != nil {
		return Stats{}, err
	}
	if st.Total == 0 {
		return st, &ReportError{Reason: fmt.Sprintf("the %s report counts no statements", st.Format)}
	}
	return st, nil
}

const bom = "\xef\xbb\xbf"

// detect names the format of a report from its first bytes.
func detect(head []byte) string {
	head = bytes.TrimLeft(head, " \t\r\n")
	switch {
	case bytes.HasPrefix(head, []byte("mode:")):
		return FormatGo
	case bytes.HasPrefix(head, []byte("<")):
		return FormatCobertura
	}
	for _, p := range []string{"TN:", "SF:"} {
		if bytes.HasPrefix(head, []byte(p)) {
			return FormatLCOV
		}
	}
	return ""
}

// lineReader yields lines of at most maxLine bytes, without the newline and
// a trailing carriage return, with their 1-based number.
type lineReader struct {
	br *bufio.Reader
	n  int
}

func (l *lineReader) next() ([]byte, error) {
	line, err := l.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) || len(line) > maxLine {
		return nil, malformed(l.n+1, "line longer than %d bytes", maxLine)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, &ReportError{Line: l.n + 1, Reason: "read: " + err.Error()}
	}
	if len(line) == 0 && err != nil {
		return nil, io.EOF
	}
	l.n++
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, nil
}

// lines yields the lines that are not blank, and stops after the first
// error (the end of the input is none).
func (l *lineReader) lines() iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		for {
			line, err := l.next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			if !yield(line, nil) {
				return
			}
		}
	}
}

// addCount adds b to *a, refusing an overflow (a forged report must not
// wrap around into a passing percentage).
func addCount(a *int64, b int64, line int) error {
	if b < 0 || *a > (1<<63-1)-b {
		return malformed(line, "count out of range")
	}
	*a += b
	return nil
}

// parseCount reads a non-negative decimal integer.
func parseCount(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// positive reports whether b is an integer greater than zero, of any size
// (execution counts can exceed int64 in long runs; only "> 0" matters).
func positive(b []byte) (pos, ok bool) {
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg := b[0] == '-'
		p, ok := positive(b[1:])
		return p && !neg, ok && len(b) > 1
	}
	if len(b) == 0 {
		return false, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false, false
		}
		if c != '0' {
			pos = true
		}
	}
	return pos, true
}

// Percent is covered/total×100 truncated at scale decimals, in canonical
// form (trailing zeros dropped).
func (s Stats) Percent(scale int32) decimal.Decimal {
	if s.Total <= 0 {
		return decimal.Zero
	}
	num := new(big.Int).Mul(big.NewInt(s.Covered), big.NewInt(100))
	num.Mul(num, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
	num.Quo(num, big.NewInt(s.Total))
	return decimal.NewFromBigInt(num, -scale)
}

// Meets reports, exactly, whether covered/total×100 ≥ min: it compares
// covered×100 with min×total, so no rounding can let a report pass.
func (s Stats) Meets(minimum decimal.Decimal) bool {
	if s.Total <= 0 {
		return false
	}
	lhs := decimal.NewFromInt(s.Covered).Mul(decimal.NewFromInt(100))
	return lhs.Cmp(minimum.Mul(decimal.NewFromInt(s.Total))) >= 0
}

// ShownPercent is the percentage as reports show it: DisplayScale decimals,
// or as many as min has, so the shown value compares with min as the exact
// one does.
func (s Stats) ShownPercent(minimum decimal.Decimal) decimal.Decimal {
	scale := int32(DisplayScale)
	if _, frac, ok := strings.Cut(minimum.String(), "."); ok && int32(len(frac)) > scale {
		scale = min(int32(len(frac)), maxScale)
	}
	return s.Percent(scale)
}

// maxScale caps the decimals shown; a minimum with more is absurd.
const maxScale = 30
