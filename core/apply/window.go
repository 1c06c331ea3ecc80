package apply

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/fsys"
)

// An instruction file changes only inside its block (or where the block is
// appended), so its diff is that of a window of a few lines around the
// block, numbered as in the whole file: a status or a dry run of a 20 MB
// file reads it once and holds the window, not the file. diff trims the
// common prefix and suffix before comparing, so the window's diff is the
// whole file's.

// windowMax bounds the text read on either side of the block for context;
// lines so long that the context does not fit send the plan back to
// reading the whole file.
const windowMax = 64 << 10

// windowLines is how many newlines the window reaches past the block on
// either side: the first one back ends the line before the block, so this
// leaves a line more than the diff's context.
const windowLines = contextLines + 2

// planWindow plans an instruction file from a scan and a window: whether it
// is missing or current, and the diff Status shows. ok is false when the
// window would not be bounded.
func (t *Target) planWindow(sys *core.System) (ok bool, err error) {
	f, err := t.open(sys)
	if errors.Is(err, fs.ErrNotExist) {
		t.missing, t.diff = true, Diff(t.Path, nil, t.block)
		return true, nil
	}
	if err != nil {
		return false, fsys.ReadError(t.Path, err)
	}
	defer f.Close()
	sc, err := scanBlock(t.Path, f, t.block)
	if err != nil {
		return false, err
	}
	if t.current = sc.current(len(t.block)); t.current {
		return true, nil
	}
	d, ok, err := windowDiff(t.Path, f, sc, t.block)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", t.Path, err)
	}
	t.diff = d
	return ok, nil
}

// windowDiff is the diff that splicing block into the file r (as sc
// scanned it) makes, read from a window around the block.
func windowDiff(path string, r io.ReaderAt, sc blockScan, block []byte) (string, bool, error) {
	return windowDiffMax(path, r, sc, block, windowMax)
}

// windowDiffMax is windowDiff reading at most max bytes of context on
// either side.
func windowDiffMax(path string, r io.ReaderAt, sc blockScan, block []byte, max int) (string, bool, error) {
	start, end := sc.size, sc.size // where an absent block is appended
	if sc.found {
		start, end = sc.blk.start, sc.blk.end
	}
	pre := make([]byte, min(start, max))
	if _, err := r.ReadAt(pre, int64(start-len(pre))); err != nil && err != io.EOF {
		return "", false, err
	}
	from, ok := afterNewlines(pre, windowLines)
	if !ok && len(pre) < start {
		return "", false, nil
	}
	post := make([]byte, min(sc.size-end, max))
	if _, err := r.ReadAt(post, int64(end)); err != nil && err != io.EOF {
		return "", false, err
	}
	to, ok := throughNewlines(post, windowLines)
	if !ok && end+len(post) < sc.size {
		return "", false, nil
	}
	old := make([]byte, 0, len(pre)-from+(end-start)+to)
	old = append(old, pre[from:]...)
	mid := len(old)
	old = append(old, make([]byte, end-start)...)
	if _, err := r.ReadAt(old[mid:], int64(start)); err != nil && err != io.EOF {
		return "", false, err
	}
	old = append(old, post[:to]...)

	ws := start - (len(pre) - from) // the window's offset in the file
	win := sc
	win.blk = span{sc.blk.start - ws, sc.blk.end - ws}
	win.size = len(old)
	var next bytes.Buffer
	if err := spliceTo(&next, bytes.NewReader(old), win, block); err != nil {
		return "", false, err
	}
	line := sc.line - bytes.Count(pre[from:], []byte("\n")) // lines before the window
	return diffAt(path, old, next.Bytes(), line, costLimit), true, nil
}

// afterNewlines is the offset in b just after the n-th newline from its
// end; ok is false when b holds fewer (the offset is then 0).
func afterNewlines(b []byte, n int) (int, bool) {
	i := len(b)
	for ; n > 0; n-- {
		j := bytes.LastIndexByte(b[:i], '\n')
		if j < 0 {
			return 0, false
		}
		i = j
	}
	return i + 1, true
}

// throughNewlines is the offset in b just after its n-th newline; ok is
// false when b holds fewer (the offset is then len(b)).
func throughNewlines(b []byte, n int) (int, bool) {
	i := 0
	for ; n > 0; n-- {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return len(b), false
		}
		i += j + 1
	}
	return i, true
}
