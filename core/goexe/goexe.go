// Package goexe reads the main module a Go executable was built from,
// without running it: the build information the Go linker writes at the
// start of the data segment (as debug/buildinfo finds it), for the ELF,
// Mach-O and PE files charter is built for. It parses only the headers
// that lead there, which keeps the executable formats' full readers (and
// about 600 KB of code every start-up of charter would map) out of the
// binary.
package goexe

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
)

var (
	// A file in none of the formats read here.
	errUnknown = errors.New("not an executable this reader knows (ELF, Mach-O or PE)")
	// An executable without Go's build information.
	errNotGo = errors.New("not a Go executable")
)

// magic opens the build information, 16-byte aligned in the data.
var magic = []byte("\xff Go buildinf:")

const (
	align      = 16
	headerSize = 32
	chunk      = 64 << 10 // the search reads the data in pieces of this size
	maxString  = 1 << 20  // longer strings than this are not Go's
)

// span is part of the file: where the build information may be.
type span struct{ off, size uint64 }

// MainModule is the path of the main module of the Go executable r holds
// (empty for one built without module information, or by Go before 1.18,
// which charter never was). The error tells that the file is not a Go
// executable this reader knows, or is the read's own.
func MainModule(r io.ReaderAt) (string, error) {
	var ident [16]byte
	if n, _ := r.ReadAt(ident[:], 0); n < len(ident) {
		return "", errUnknown
	}
	var (
		data span
		err  error
	)
	switch {
	case bytes.HasPrefix(ident[:], []byte("\x7fELF")):
		data, err = elfData(r, ident)
	case bytes.HasPrefix(ident[:], []byte("MZ")):
		data, err = peData(r)
	default:
		data, err = machoData(r, ident)
	}
	if err != nil {
		return "", err
	}
	at, err := search(r, data)
	if err != nil {
		return "", err
	}
	var h [headerSize]byte
	if _, err := readFull(r, h[:], at); err != nil {
		return "", errNotGo
	}
	if h[15]&2 == 0 {
		return "", nil // pointers to the strings: Go before 1.18
	}
	at += headerSize
	vers, at, err := inline(r, at, data.off+data.size)
	if err != nil || vers == "" {
		return "", errNotGo
	}
	mod, _, err := inline(r, at, data.off+data.size)
	if err != nil {
		return "", errNotGo
	}
	return mainPath(mod), nil
}

// search finds the aligned magic in data.
func search(r io.ReaderAt, data span) (uint64, error) {
	start, end := (data.off+align-1)&^(align-1), data.off+data.size
	if end < data.off || start >= end {
		return 0, errNotGo
	}
	buf := make([]byte, min(chunk, end-start))
	for ; start < end; start += uint64(len(buf)) {
		buf = buf[:min(uint64(len(buf)), end-start)]
		n, err := r.ReadAt(buf, int64(start))
		if n == 0 {
			if err != nil && err != io.EOF {
				return 0, err
			}
			return 0, errNotGo
		}
		for i := 0; i+len(magic) <= n; i += align {
			if bytes.Equal(buf[i:i+len(magic)], magic) {
				if end-start-uint64(i) < headerSize {
					return 0, errNotGo
				}
				return start + uint64(i), nil
			}
		}
	}
	return 0, errNotGo
}

// inline reads a varint-prefixed string at off, below end.
func inline(r io.ReaderAt, off, end uint64) (string, uint64, error) {
	var b [binary.MaxVarintLen64]byte
	n, err := r.ReadAt(b[:], int64(off))
	if n == 0 {
		return "", 0, errors.Join(errNotGo, err)
	}
	size, k := binary.Uvarint(b[:n])
	if k <= 0 || size > maxString || off+uint64(k)+size > end {
		return "", 0, errNotGo
	}
	s := make([]byte, size)
	if _, err := readFull(r, s, off+uint64(k)); err != nil {
		return "", 0, err
	}
	return string(s), off + uint64(k) + size, nil
}

// mainPath is the main module's path in the module information: its
// "mod" line, inside the 16-byte sentinels cmd/go frames it with.
func mainPath(mod string) string {
	if len(mod) < 33 || mod[len(mod)-17] != '\n' {
		return ""
	}
	for line := range strings.SplitSeq(mod[16:len(mod)-16], "\n") {
		if rest, ok := strings.CutPrefix(line, "mod\t"); ok {
			path, _, _ := strings.Cut(rest, "\t")
			return path
		}
	}
	return ""
}

func readFull(r io.ReaderAt, b []byte, off uint64) (int, error) {
	if off > 1<<62 {
		return 0, errNotGo
	}
	n, err := r.ReadAt(b, int64(off))
	if n == len(b) {
		return n, nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}
