package gates

import (
	"bufio"
	"bytes"
)

// parseLCOV counts an LCOV tracefile: records from `SF:` to
// `end_of_record`, each with `DA:line,count` lines and the summary lines
// `LF:` (lines found) and `LH:` (lines hit).
//
// Which count wins: a record that has both LF and LH is counted by them —
// they are the producer's own totals, and some producers (or filters) leave
// DA lines out. A record without both is counted from its DA lines: each
// distinct line number once, covered when any of its counts is > 0. LH
// greater than LF is an error. Records are summed as they come: a file that
// appears in two records (tracefiles joined with cat) counts twice; merge
// them first with `lcov -a`. Memory is bounded by the largest record's DA
// lines, not by the size of the file. Other record lines (TN, FN, FNDA,
// BRDA, …) are ignored; a report that ends inside a record is truncated and
// therefore an error.
func parseLCOV(br *bufio.Reader) (Stats, error) {
	lr := &lineReader{br: br}
	st := Stats{Format: FormatLCOV}
	var (
		in           bool  // inside a record
		start        int   // line of its SF:
		lf, lh       int64 // its summary, when given
		hasLF, hasLH bool
		daTotal      int64
		daCovered    int64
		lines        lineSet // this record's DA lines
	)
	for line, err := range lr.lines() {
		if err != nil {
			return st, err
		}
		if bytes.Equal(bytes.TrimSpace(line), []byte("end_of_record")) {
			if !in {
				return st, malformed(lr.n, "end_of_record outside a record")
			}
			total, covered := daTotal, daCovered
			if hasLF && hasLH {
				if lh > lf {
					return st, malformed(lr.n, "the record has more lines hit (LH:%d) than found (LF:%d)", lh, lf)
				}
				total, covered = lf, lh
			}
			if err := addCount(&st.Total, total, lr.n); err != nil {
				return st, err
			}
			st.Covered += covered // ≤ total, so no overflow
			in = false
			continue
		}
		key, val, ok := bytes.Cut(line, []byte(":"))
		if !ok || !lcovKey(key) {
			return st, malformed(lr.n, "not an LCOV line (KEY:value or end_of_record): %.80q", line)
		}
		switch string(key) {
		case "SF":
			if in {
				return st, malformed(lr.n, "SF: before the end_of_record of the record that starts on line %d", start)
			}
			in, start = true, lr.n
			lf, lh, hasLF, hasLH, daTotal, daCovered = 0, 0, false, false, 0, 0
			lines.reset()
		case "DA", "LF", "LH":
			if !in {
				return st, malformed(lr.n, "%s: outside a record (no SF: before it)", key)
			}
			switch string(key) {
			case "DA":
				num, rest, _ := bytes.Cut(val, []byte(","))
				count, _, _ := bytes.Cut(rest, []byte(","))
				n, okn := parseCount(num)
				pos, okc := positive(count)
				if !okn || !okc {
					return st, malformed(lr.n, "DA: wants line,count: %.80q", val)
				}
				newLine, newHit := lines.add(n, pos)
				if newLine {
					daTotal++
				}
				if newHit {
					daCovered++
				}
			case "LF", "LH":
				n, okn := parseCount(bytes.TrimSpace(val))
				if !okn {
					return st, malformed(lr.n, "%s: wants a count: %.80q", key, val)
				}
				if key[1] == 'F' {
					lf, hasLF = n, true
				} else {
					lh, hasLH = n, true
				}
			}
		}
	}
	if in {
		return st, malformed(lr.n, "the report ends inside the record that starts on line %d (no end_of_record): truncated?", start)
	}
	return st, nil
}

// lcovKey reports whether b looks like an LCOV record key (TN, SF, FNDA, …).
func lcovKey(b []byte) bool {
	if len(b) == 0 || len(b) > 8 {
		return false
	}
	for _, c := range b {
		if (c < 'A' || c > 'Z') && c != '_' {
			return false
		}
	}
	return true
}

// bitLines is how many line numbers lineSet keeps in bitsets (256 KiB in
// all); larger ones go to a map.
const bitLines = 1 << 20

// lineSet records the distinct lines of one record and which are covered.
type lineSet struct {
	seen, hit []uint64
	words     int // words of seen and hit in use since the last reset
	big       map[int64]bool
}

func (s *lineSet) reset() {
	clear(s.seen[:s.words])
	clear(s.hit[:s.words])
	s.words = 0
	clear(s.big)
}

// add records line n, covered when pos, and reports whether the line is
// new and whether it became covered.
func (s *lineSet) add(n int64, pos bool) (newLine, newHit bool) {
	if n >= bitLines {
		if s.big == nil {
			s.big = map[int64]bool{}
		}
		was, seen := s.big[n]
		s.big[n] = was || pos
		return !seen, pos && !was
	}
	w, bit := int(n/64), uint64(1)<<(n%64)
	if w >= len(s.seen) {
		grow := max(w+1, 2*len(s.seen))
		s.seen = append(s.seen, make([]uint64, grow-len(s.seen))...)
		s.hit = append(s.hit, make([]uint64, grow-len(s.hit))...)
	}
	s.words = max(s.words, w+1)
	newLine = s.seen[w]&bit == 0
	newHit = pos && s.hit[w]&bit == 0
	s.seen[w] |= bit
	if pos {
		s.hit[w] |= bit
	}
	return newLine, newHit
}
