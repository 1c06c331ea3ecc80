package apply

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

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

// bom is the UTF-8 byte order mark some editors put before a file's first
// line: it is not part of that line, and is kept byte for byte.
var bom = []byte("\ufeff")

// findBlock locates the managed block in data, as scanBlock does.
func findBlock(path string, data []byte) (span, bool, error) {
	sc, err := scanBlock(path, bytes.NewReader(data), nil)
	if err != nil {
		return span{}, false, err
	}
	return sc.blk, sc.found, nil
}

// marker reports whether line is the marker m: a marker counts only on a
// line of its own (surrounding blanks allowed), so prose that quotes it is
// text.
func marker(line []byte, m string) bool {
	t := bytes.TrimSpace(line)
	return len(t) == len(m) && string(t) == m
}

// fenceOpen is the fence a line opens, "" when it opens none (CommonMark):
// at most three spaces, then three or more backticks or tildes; after
// backticks the rest of the line holds no backtick.
func fenceOpen(line []byte) string {
	rest := bytes.TrimLeft(line, " ")
	if len(line)-len(rest) > 3 || len(rest) < 3 || (rest[0] != '`' && rest[0] != '~') {
		return ""
	}
	n := len(rest) - len(bytes.TrimLeft(rest, string(rest[:1])))
	if n < 3 || (rest[0] == '`' && bytes.IndexByte(rest[n:], '`') >= 0) {
		return ""
	}
	return string(rest[:n])
}

// fenceCloses reports whether line closes the fence (CommonMark): at most
// three spaces, the fence's character at least as many times, then only
// blanks.
func fenceCloses(line []byte, fence string) bool {
	rest := bytes.TrimLeft(line, " ")
	if len(line)-len(rest) > 3 {
		return false
	}
	after := bytes.TrimLeft(rest, fence[:1])
	return len(rest)-len(after) >= len(fence) && len(bytes.Trim(after, " \t\r\n")) == 0
}

func duplicateBegin(path string, line, first int) error {
	return &MarkerError{Path: path, Msg: fmt.Sprintf("duplicate charter markers: a second begin at line %d (the first is at line %d)", line, first)}
}

func lonelyEnd(path string, line int) error {
	return &MarkerError{Path: path, Msg: fmt.Sprintf("unbalanced charter markers: end at line %d has no begin", line)}
}

func lonelyBegin(path string, line int) error {
	return &MarkerError{Path: path, Msg: fmt.Sprintf("unbalanced charter markers: begin at line %d has no end", line)}
}

// holdsBlock reports whether the file r streams has exactly block as its
// managed block. Broken markers fail as findBlock fails them.
func holdsBlock(path string, r io.Reader, block []byte) (bool, error) {
	sc, err := scanBlock(path, r, block)
	return err == nil && sc.current(len(block)), err
}

// blockScan is what scanBlock found in a file.
type blockScan struct {
	blk         span
	found, same bool // same: the block read so far is block[:m]
	m           int
	size        int
	tail        []byte // the file's last two bytes, or fewer
	line        int    // the lines before the block, or in the whole file when there is none
	bom         bool   // the file starts with a byte order mark
	empty       bool   // the file holds nothing, or only a byte order mark
	fence       string // the fenced code block the file ends in, unclosed
}

func (sc blockScan) current(n int) bool { return sc.found && sc.same && sc.m == n }

// scanBlock locates the managed block in the file r streams, holding no
// more than a chunk at a time (and a line longer than a chunk whole), and
// compares the block it finds with block as it goes. It walks the file
// line by line, as a Markdown reader does: markers count only on a line of
// their own and outside fenced code blocks (an example that shows them is
// text); inside the block, which is charter's, only its end marker counts.
// A byte order mark before the first line is not part of it.
func scanBlock(path string, r io.Reader, block []byte) (blockScan, error) {
	return scanBlockChunks(path, r, block, 256<<10)
}

func scanBlockChunks(path string, r io.Reader, block []byte, chunk int) (blockScan, error) {
	var (
		sc      blockScan
		open    bool
		begin   int // the begin marker's line
		lines   int // lines before the current one
		last    [2]byte
		buf     = make([]byte, 0, chunk)
		eof     bool
		compare = func(seg []byte) {
			if sc.same {
				if sc.same = sc.m+len(seg) <= len(block) && bytes.Equal(seg, block[sc.m:sc.m+len(seg)]); sc.same {
					sc.m += len(seg)
				} else {
					sc.m = 0 // one state for "differs", however the file was cut into chunks
				}
			}
		}
	)
	for !eof {
		if len(buf) == cap(buf) { // a line longer than a chunk
			buf = append(buf, make([]byte, cap(buf))...)[:len(buf)]
		}
		read := len(buf) // buf[:read] holds no newline: the rest of a line
		n, err := r.Read(buf[read:cap(buf)])
		buf = buf[:read+n]
		switch {
		case err == io.EOF:
			eof = true
		case err != nil:
			return sc, fmt.Errorf("read %s: %w", path, err)
		case n == 0:
			continue
		}
		end := len(buf) // the complete lines in buf
		if !eof {
			i := bytes.LastIndexByte(buf[read:], '\n')
			if i < 0 {
				continue
			}
			end = read + i + 1
		}
		seg, from := buf[:end], 0 // seg[from:] is not compared with block yet
		for pos := 0; pos < len(seg); {
			ls, le := pos, len(seg)
			if i := bytes.IndexByte(seg[pos:], '\n'); i >= 0 {
				le = pos + i + 1
			}
			if sc.size+pos == 0 && bytes.HasPrefix(seg, bom) {
				ls, sc.bom = ls+len(bom), true
			}
			line := seg[ls:le]
			pos = le
			switch {
			case open:
				if marker(line, BeginMarker) {
					return sc, duplicateBegin(path, lines+1, begin)
				}
				if marker(line, EndMarker) {
					compare(seg[from:le])
					open, sc.found, sc.blk.end = false, true, sc.size+le
				}
			case sc.fence != "":
				if fenceCloses(line, sc.fence) {
					sc.fence = ""
				}
			case marker(line, BeginMarker):
				if sc.found {
					return sc, duplicateBegin(path, lines+1, begin)
				}
				open, begin, sc.same, sc.m, sc.blk.start, from = true, lines+1, true, 0, sc.size+ls, ls
				sc.line = lines
			case marker(line, EndMarker):
				return sc, lonelyEnd(path, lines+1)
			default:
				sc.fence = fenceOpen(line)
			}
			if seg[le-1] == '\n' {
				lines++
			}
		}
		if open {
			compare(seg[from:])
		}
		switch {
		case len(seg) >= 2:
			last = [2]byte{seg[len(seg)-2], seg[len(seg)-1]}
		case len(seg) == 1:
			last = [2]byte{last[1], seg[0]}
		}
		sc.size += len(seg)
		buf = buf[:copy(buf, buf[end:])]
	}
	if open {
		return sc, lonelyBegin(path, begin)
	}
	sc.tail = last[2-min(sc.size, 2):]
	sc.empty = sc.size == 0 || (sc.bom && sc.size == len(bom))
	if !sc.found {
		sc.line = lines
	}
	return sc, nil
}

// gap is what goes between the text of a file without a block and the
// block appended to it: a blank line, and first the line that closes a
// fenced code block the file leaves open, or the block would be code and
// never found again.
func (sc blockScan) gap() string {
	var nl string
	if !sc.empty && !strings.HasSuffix(string(sc.tail), "\n") {
		nl = "\n"
	}
	switch tail := string(sc.tail); {
	case sc.fence != "":
		return nl + sc.fence + "\n\n"
	case sc.empty, tail == "\n\n":
		return ""
	case nl == "":
		return "\n"
	}
	return "\n\n"
}

// spliceTo writes into w the file old (as sc scanned it) with block
// spliced in as spliceParts does, copying the text around the block from
// old without holding it.
func spliceTo(w io.Writer, old io.ReadSeeker, sc blockScan, block []byte) error {
	copyRange := func(from, to int) error {
		if _, err := old.Seek(int64(from), io.SeekStart); err != nil {
			return err
		}
		n, err := io.Copy(w, io.LimitReader(old, int64(to-from)))
		if err == nil && n != int64(to-from) {
			err = errors.New("the file got shorter while charter was writing it; run the command again")
		}
		return err
	}
	var sep string
	if !sc.found {
		sep, sc.blk = sc.gap(), span{sc.size, sc.size}
	}
	if err := copyRange(0, sc.blk.start); err != nil {
		return err
	}
	if _, err := io.WriteString(w, sep); err != nil {
		return err
	}
	if _, err := w.Write(block); err != nil {
		return err
	}
	return copyRange(sc.blk.end, sc.size)
}

// splice puts block into data: in place of the old block, or appended after
// a blank line. data is nil for a file that does not exist yet.
func splice(path string, data, block []byte) ([]byte, error) {
	parts, err := spliceParts(path, data, block)
	if err != nil {
		return nil, err
	}
	return bytes.Join(parts, nil), nil
}

// spliceParts is splice as parts of the new file, slices of data around
// block: the file may be large, and is never copied to be edited.
func spliceParts(path string, data, block []byte) ([][]byte, error) {
	sc, err := scanBlock(path, bytes.NewReader(data), nil)
	switch {
	case err != nil:
		return nil, err
	case sc.found:
		return [][]byte{data[:sc.blk.start], block, data[sc.blk.end:]}, nil
	case len(data) == 0:
		return [][]byte{block}, nil
	}
	return [][]byte{data, []byte(sc.gap()), block}, nil
}
