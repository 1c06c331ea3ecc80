package apply

import (
	"bytes"
	"fmt"

	"github.com/agentkit/charter/core"
)

// The markers around the one part of an instruction file charter owns.
// Everything outside them belongs to the user and is kept byte for byte.
const (
	BeginMarker = "<!-- charter:begin -->"
	EndMarker   = "<!-- charter:end -->"
)

// MarkerError is an instruction file whose markers charter cannot pair up.
// Nothing is written to such a file: guessing could destroy the user's text.
type MarkerError struct {
	Path string
	Msg  string
}

func (e *MarkerError) Code() string { return core.CodeMalformedMarkers }

func (e *MarkerError) Error() string {
	return fmt.Sprintf("%s: %s (fix the markers by hand; charter wrote nothing)", e.Path, e.Msg)
}

// span is the byte range of the managed block, marker lines included.
type span struct{ start, end int }

// findBlock locates the managed block. A marker counts only on a line of
// its own (surrounding blanks allowed), so prose that quotes it is text.
func findBlock(path string, data []byte) (span, bool, error) {
	var (
		blk                 span
		found               bool
		beginLine, openLine int // openLine > 0 while a begin waits for its end
	)
	for off, line := 0, 1; off < len(data); line++ {
		next := len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			next = off + i + 1
		}
		switch string(bytes.TrimSpace(data[off:next])) {
		case BeginMarker:
			if openLine > 0 || found {
				return span{}, false, &MarkerError{Path: path, Msg: fmt.Sprintf("duplicate charter markers: a second begin at line %d (the first is at line %d)", line, beginLine)}
			}
			openLine, beginLine, blk.start = line, line, off
		case EndMarker:
			if openLine == 0 {
				return span{}, false, &MarkerError{Path: path, Msg: fmt.Sprintf("unbalanced charter markers: end at line %d has no begin", line)}
			}
			openLine, found, blk.end = 0, true, next
		}
		off = next
	}
	if openLine > 0 {
		return span{}, false, &MarkerError{Path: path, Msg: fmt.Sprintf("unbalanced charter markers: begin at line %d has no end", openLine)}
	}
	return blk, found, nil
}

// splice puts block into data: in place of the old block, or appended after
// a blank line. data is nil for a file that does not exist yet.
func splice(path string, data, block []byte) ([]byte, error) {
	blk, found, err := findBlock(path, data)
	if err != nil {
		return nil, err
	}
	// One allocation of the final size: the file may be large.
	out := make([]byte, 0, len(data)+len(block)+2)
	switch {
	case found:
		out = append(out, data[:blk.start]...)
		out = append(out, block...)
		out = append(out, data[blk.end:]...)
	case len(data) == 0:
		out = append(out, block...)
	default:
		out = append(out, data...)
		if !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, '\n')
		}
		if !bytes.HasSuffix(out, []byte("\n\n")) {
			out = append(out, '\n')
		}
		out = append(out, block...)
	}
	return out, nil
}
