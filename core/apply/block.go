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

// markerStem begins both markers: only a line holding it can be one, so
// the scan jumps from one to the next instead of walking every line.
const markerStem = "<!-- charter:"

// findBlock locates the managed block. A marker counts only on a line of
// its own (surrounding blanks allowed), so prose that quotes it is text.
func findBlock(path string, data []byte) (span, bool, error) {
	var (
		blk   span
		found bool
		open  bool // a begin waits for its end at blk.start
	)
	lineAt := func(off int) int { return bytes.Count(data[:off], []byte("\n")) + 1 }
	for off := 0; off < len(data); {
		start, next, ok := nextMarkerLine(data, off)
		if !ok {
			break
		}
		switch string(bytes.TrimSpace(data[start:next])) {
		case BeginMarker:
			if open || found {
				first := blk.start
				return span{}, false, duplicateBegin(path, lineAt(start), lineAt(first))
			}
			open, blk.start = true, start
		case EndMarker:
			if !open {
				return span{}, false, lonelyEnd(path, lineAt(start))
			}
			open, found, blk.end = false, true, next
		}
		off = next
	}
	if open {
		return span{}, false, lonelyBegin(path, lineAt(blk.start))
	}
	return blk, found, nil
}

// nextMarkerLine finds, from off (a line's start), the next line holding
// the marker stem: its start and the start of the line after it. findBlock
// and scanBlock both walk a file with it, marker to marker.
func nextMarkerLine(data []byte, off int) (start, next int, ok bool) {
	i := bytes.Index(data[off:], []byte(markerStem))
	if i < 0 {
		return 0, 0, false
	}
	at := off + i
	start = off + bytes.LastIndexByte(data[off:at], '\n') + 1
	next = len(data)
	if j := bytes.IndexByte(data[at:], '\n'); j >= 0 {
		next = at + j + 1
	}
	return start, next, true
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
}

func (sc blockScan) current(n int) bool { return sc.found && sc.same && sc.m == n }

// scanBlock is findBlock over a stream, for files never held in memory: it
// holds no more than a chunk at a time (and a line longer than a chunk
// whole), jumps from marker to marker as findBlock does, and compares the
// block it finds with block as it goes.
func scanBlock(path string, r io.Reader, block []byte) (blockScan, error) {
	return scanBlockChunks(path, r, block, 256<<10)
}

func scanBlockChunks(path string, r io.Reader, block []byte, chunk int) (blockScan, error) {
	var (
		sc      blockScan
		open    bool
		begin   int // the begin marker's line
		lines   int // lines before the data in buf
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
		lineAt := func(off int) int { return lines + bytes.Count(seg[:off], []byte("\n")) + 1 }
		for pos := 0; pos < len(seg); {
			ls, le, ok := nextMarkerLine(seg, pos)
			if !ok {
				break
			}
			switch string(bytes.TrimSpace(seg[ls:le])) {
			case BeginMarker:
				if open || sc.found {
					return sc, duplicateBegin(path, lineAt(ls), begin)
				}
				open, begin, sc.same, sc.m, sc.blk.start, from = true, lineAt(ls), true, 0, sc.size+ls, ls
				sc.line = begin - 1
			case EndMarker:
				if !open {
					return sc, lonelyEnd(path, lineAt(ls))
				}
				compare(seg[from:le])
				open, sc.found, sc.blk.end = false, true, sc.size+le
			}
			pos = le
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
		lines += bytes.Count(seg, []byte("\n"))
		sc.size += len(seg)
		buf = buf[:copy(buf, buf[end:])]
	}
	if open {
		return sc, lonelyBegin(path, begin)
	}
	sc.tail = last[2-min(sc.size, 2):]
	if !sc.found {
		sc.line = lines
	}
	return sc, nil
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
		switch tail := string(sc.tail); {
		case sc.size == 0, tail == "\n\n":
		case strings.HasSuffix(tail, "\n"):
			sep = "\n"
		default:
			sep = "\n\n"
		}
		sc.blk = span{sc.size, sc.size}
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
	blk, found, err := findBlock(path, data)
	if err != nil {
		return nil, err
	}
	switch {
	case found:
		return [][]byte{data[:blk.start], block, data[blk.end:]}, nil
	case len(data) == 0:
		return [][]byte{block}, nil
	case bytes.HasSuffix(data, []byte("\n\n")):
		return [][]byte{data, block}, nil
	case bytes.HasSuffix(data, []byte("\n")):
		return [][]byte{data, []byte("\n"), block}, nil
	}
	return [][]byte{data, []byte("\n\n"), block}, nil
}
