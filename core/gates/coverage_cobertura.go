package gates

import (
	"bufio"
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// maxDepth bounds element nesting in a Cobertura report; real ones nest
// about six deep.
const maxDepth = 64

// parseCobertura counts a Cobertura XML report with encoding/xml's
// streaming tokenizer. When the root <coverage> element carries both
// lines-valid and lines-covered, those totals are the answer and the rest of
// the file is not read. Otherwise every <line> element of a <class> counts
// once, covered when its hits attribute is > 0; the copies of those lines
// that Cobertura repeats under <methods> are not counted again.
func parseCobertura(br *bufio.Reader) (Stats, error) {
	st := Stats{Format: FormatCobertura}
	d := xml.NewDecoder(br)
	// Only ASCII attribute values matter here, so any declared encoding
	// may be read as it is.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	line := func() int { l, _ := d.InputPos(); return l }
	var (
		depth   int
		root    bool // seen <coverage>
		classes int  // open <class> elements
		methods int  // open <methods> or <method> elements
	)
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return st, malformed(se.Line, "invalid XML: %s", se.Msg)
			}
			return st, malformed(line(), "read: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > maxDepth {
				return st, malformed(line(), "elements nested deeper than %d", maxDepth)
			}
			name := t.Name.Local
			if !root {
				if name != "coverage" {
					return st, malformed(line(), "the root element is <%s>, not <coverage>: not a Cobertura report", name)
				}
				root = true
				valid, okv := attr(t, "lines-valid")
				covered, okc := attr(t, "lines-covered")
				if okv && okc {
					return coberturaTotals(st, valid, covered, line())
				}
				continue
			}
			switch name {
			case "class":
				classes++
			case "methods", "method":
				methods++
			case "line":
				if classes == 0 || methods > 0 {
					continue
				}
				hits, ok := attr(t, "hits")
				if !ok {
					return st, malformed(line(), "<line> without a hits attribute")
				}
				pos, ok := positive([]byte(strings.TrimSpace(hits)))
				if !ok {
					return st, malformed(line(), "<line hits=%.40q>: not a count", hits)
				}
				if err := addCount(&st.Total, 1, line()); err != nil {
					return st, err
				}
				if pos {
					st.Covered++
				}
			}
		case xml.EndElement:
			depth--
			switch t.Name.Local {
			case "class":
				classes--
			case "methods", "method":
				methods--
			}
		}
	}
	if !root {
		return st, malformed(0, "no <coverage> element: not a Cobertura report")
	}
	return st, nil
}

func coberturaTotals(st Stats, valid, covered string, line int) (Stats, error) {
	v, okv := parseCount([]byte(strings.TrimSpace(valid)))
	c, okc := parseCount([]byte(strings.TrimSpace(covered)))
	if !okv || !okc {
		return st, malformed(line, "<coverage lines-valid=%.40q lines-covered=%.40q>: not counts", valid, covered)
	}
	if c > v {
		return st, malformed(line, "<coverage>: more lines covered (%d) than valid (%d)", c, v)
	}
	st.Total, st.Covered = v, c
	return st, nil
}

func attr(t xml.StartElement, name string) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value, true
		}
	}
	return "", false
}
