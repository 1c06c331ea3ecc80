package gates

import (
	"bufio"
	"bytes"
	"hash/maphash"
)

// goBlock is what a Go cover profile says about one block, merged over
// every line that names it.
type goBlock struct {
	stmts   int64
	covered bool
}

// blockKey identifies a block (file and range) by two independent 64-bit
// hashes of its text: 16 bytes per block whatever the path length, with a
// chance of a collision far below that of a disk error.
type blockKey [2]uint64

type blockHasher struct{ a, b maphash.Seed }

func newBlockHasher() blockHasher { return blockHasher{maphash.MakeSeed(), maphash.MakeSeed()} }

func (h blockHasher) key(b []byte) blockKey {
	return blockKey{maphash.Bytes(h.a, b), maphash.Bytes(h.b, b)}
}

// parseGo counts a Go cover profile:
//
//	mode: set
//	example.com/p/f.go:3.14,5.2 2 1
//
// A block (file and range) may appear many times, as when several test
// binaries write one profile; like `go tool cover` (x/tools/cover), its
// lines merge into one block that is covered when any count is > 0, and a
// block whose statement count changes between lines is an error. Memory
// therefore grows with the number of distinct blocks (the size of the code
// measured; about 40 bytes each), never with repetitions.
//
// Unlike `go tool cover`, a repeated `mode:` line equal to the first is
// accepted (profiles joined with cat), and blank lines are skipped.
func parseGo(br *bufio.Reader) (Stats, error) {
	lr := &lineReader{br: br}
	st := Stats{Format: FormatGo}
	var mode []byte
	blocks := map[blockKey]goBlock{}
	hash := newBlockHasher()
	for line, err := range lr.lines() {
		if err != nil {
			return st, err
		}
		if m, ok := bytes.CutPrefix(line, []byte("mode: ")); ok {
			switch {
			case len(m) == 0:
				return st, malformed(lr.n, "empty mode")
			case mode == nil:
				mode = bytes.Clone(m)
			case !bytes.Equal(m, mode):
				return st, malformed(lr.n, "mode %q after mode %q: profiles of different modes cannot be merged", m, mode)
			}
			continue
		}
		if mode == nil {
			return st, malformed(lr.n, "a Go cover profile starts with a \"mode: \" line")
		}
		key, stmts, pos, ok := goLine(line)
		if !ok {
			return st, malformed(lr.n, "not a cover profile line (file.go:line.col,line.col statements count): %.80q", line)
		}
		k := hash.key(key)
		if b, seen := blocks[k]; seen {
			if b.stmts != stmts {
				return st, malformed(lr.n, "inconsistent statement count for %s: %d, then %d", key, b.stmts, stmts)
			}
			if pos && !b.covered {
				blocks[k] = goBlock{stmts: stmts, covered: true}
				st.Covered += stmts // cannot overflow: already counted in Total
			}
			continue
		}
		blocks[k] = goBlock{stmts: stmts, covered: pos}
		if err := addCount(&st.Total, stmts, lr.n); err != nil {
			return st, err
		}
		if pos {
			st.Covered += stmts
		}
	}
	if mode == nil {
		return st, malformed(0, "no \"mode: \" line")
	}
	return st, nil
}

// goLine splits "file:l.c,l.c stmts count" into the block key (file and
// range), the statement count and whether the count is > 0.
func goLine(line []byte) (key []byte, stmts int64, pos, ok bool) {
	sp := bytes.LastIndexByte(line, ' ')
	if sp < 0 {
		return nil, 0, false, false
	}
	pos, ok = positive(line[sp+1:])
	if !ok || bytes.HasPrefix(line[sp+1:], []byte("-")) || bytes.HasPrefix(line[sp+1:], []byte("+")) {
		return nil, 0, false, false
	}
	line = line[:sp]
	sp = bytes.LastIndexByte(line, ' ')
	if sp < 0 {
		return nil, 0, false, false
	}
	stmts, ok = parseCount(line[sp+1:])
	if !ok {
		return nil, 0, false, false
	}
	key = line[:sp]
	colon := bytes.LastIndexByte(key, ':')
	if colon <= 0 || !goRange(key[colon+1:]) {
		return nil, 0, false, false
	}
	return key, stmts, pos, true
}

// goRange checks "l.c,l.c".
func goRange(b []byte) bool {
	start, end, ok := bytes.Cut(b, []byte(","))
	return ok && goPos(start) && goPos(end)
}

func goPos(b []byte) bool {
	l, c, ok := bytes.Cut(b, []byte("."))
	_, okl := parseCount(l)
	_, okc := parseCount(c)
	return ok && okl && okc
}
