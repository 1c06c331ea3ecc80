package goexe

import (
	"bytes"
	"encoding/binary"
	"io"
)

// maxTable bounds a header table read whole: a real one is a few KB.
const maxTable = 1 << 20

// table reads n entries of size bytes at off.
func table(r io.ReaderAt, off, n, size uint64) ([]byte, error) {
	if size == 0 || n > maxTable/size {
		return nil, errUnknown
	}
	b := make([]byte, n*size)
	if _, err := readFull(r, b, off); err != nil {
		return nil, errUnknown
	}
	return b, nil
}

// elfData is the section .go.buildinfo, or else the first segment that
// is written and not run (the data segment), as debug/buildinfo looks.
func elfData(r io.ReaderAt, ident [16]byte) (span, error) {
	var bo binary.ByteOrder
	switch ident[5] {
	case 1:
		bo = binary.LittleEndian
	case 2:
		bo = binary.BigEndian
	default:
		return span{}, errUnknown
	}
	is64 := ident[4] == 2
	if !is64 && ident[4] != 1 {
		return span{}, errUnknown
	}
	var h [64]byte // a 32-bit header is 52 bytes: the file may end after it
	if n, _ := r.ReadAt(h[:], 0); n < 52 || is64 && n < 64 {
		return span{}, errUnknown
	}
	word := func(b []byte) uint64 {
		if is64 {
			return bo.Uint64(b)
		}
		return uint64(bo.Uint32(b))
	}
	// The two tables' places: program headers, then section headers.
	var phoff, shoff uint64
	var phent, phnum, shent, shnum, shstr uint16
	if is64 {
		phoff, shoff = word(h[0x20:]), word(h[0x28:])
		phent, phnum, shent, shnum, shstr = bo.Uint16(h[0x36:]), bo.Uint16(h[0x38:]), bo.Uint16(h[0x3a:]), bo.Uint16(h[0x3c:]), bo.Uint16(h[0x3e:])
	} else {
		phoff, shoff = word(h[0x1c:]), word(h[0x20:])
		phent, phnum, shent, shnum, shstr = bo.Uint16(h[0x2a:]), bo.Uint16(h[0x2c:]), bo.Uint16(h[0x2e:]), bo.Uint16(h[0x30:]), bo.Uint16(h[0x32:])
	}
	if s, ok := elfSection(r, bo, is64, shoff, uint64(shent), uint64(shnum), uint64(shstr)); ok {
		return s, nil
	}
	minEnt := uint16(32)
	if is64 {
		minEnt = 56
	}
	if phnum == 0 || phent < minEnt {
		return span{}, errNotGo
	}
	ph, err := table(r, phoff, uint64(phnum), uint64(phent))
	if err != nil {
		return span{}, err
	}
	const load, x, w = 1, 1, 2
	for i := range uint64(phnum) {
		p := ph[i*uint64(phent):]
		var flags uint32
		var off, filesz uint64
		if is64 {
			flags, off, filesz = bo.Uint32(p[4:]), word(p[8:]), word(p[32:])
		} else {
			off, filesz, flags = word(p[4:]), word(p[16:]), bo.Uint32(p[24:])
		}
		if bo.Uint32(p) == load && flags&(x|w) == w {
			return span{off, filesz}, nil
		}
	}
	return span{}, errNotGo
}

// elfSection finds the section named .go.buildinfo.
func elfSection(r io.ReaderAt, bo binary.ByteOrder, is64 bool, off, ent, n, strndx uint64) (span, bool) {
	minEnt := uint64(40)
	if is64 {
		minEnt = 64
	}
	if n == 0 || ent < minEnt || strndx >= n {
		return span{}, false
	}
	sh, err := table(r, off, n, ent)
	if err != nil {
		return span{}, false
	}
	// name, type, offset and size of section i.
	sec := func(i uint64) (uint32, uint32, uint64, uint64) {
		s := sh[i*ent:]
		if is64 {
			return bo.Uint32(s), bo.Uint32(s[4:]), bo.Uint64(s[24:]), bo.Uint64(s[32:])
		}
		return bo.Uint32(s), bo.Uint32(s[4:]), uint64(bo.Uint32(s[16:])), uint64(bo.Uint32(s[20:]))
	}
	_, _, stroff, strsize := sec(strndx)
	if strsize > maxTable {
		return span{}, false
	}
	names, err := table(r, stroff, strsize, 1)
	if err != nil {
		return span{}, false
	}
	const nobits = 8
	want := []byte(".go.buildinfo\x00")
	for i := range n {
		name, typ, o, size := sec(i)
		if typ != nobits && uint64(name) < uint64(len(names)) && bytes.HasPrefix(names[name:], want) {
			return span{o, size}, true
		}
	}
	return span{}, false
}

// peData is the first section of initialised data that is read and
// written, as debug/buildinfo looks.
func peData(r io.ReaderAt) (span, error) {
	var b [4]byte
	if _, err := readFull(r, b[:], 0x3c); err != nil {
		return span{}, errUnknown
	}
	at := uint64(binary.LittleEndian.Uint32(b[:]))
	var h [24]byte
	if _, err := readFull(r, h[:], at); err != nil || !bytes.Equal(h[:4], []byte("PE\x00\x00")) {
		return span{}, errUnknown
	}
	n, opt := binary.LittleEndian.Uint16(h[6:]), binary.LittleEndian.Uint16(h[20:])
	secs, err := table(r, at+24+uint64(opt), uint64(n), 40)
	if err != nil {
		return span{}, err
	}
	const (
		initData = 0x40
		read     = 0x40000000
		write    = 0x80000000
		align32  = 0x600000
	)
	for i := range uint64(n) {
		s := secs[i*40:]
		vsize, va, rawSize, rawOff, chars := binary.LittleEndian.Uint32(s[8:]), binary.LittleEndian.Uint32(s[12:]), binary.LittleEndian.Uint32(s[16:]), binary.LittleEndian.Uint32(s[20:]), binary.LittleEndian.Uint32(s[36:])
		if va != 0 && rawSize != 0 && chars&^align32 == initData|read|write {
			return span{uint64(rawOff), uint64(min(vsize, rawSize))}, nil
		}
	}
	return span{}, errNotGo
}

// machoData is the section __go_buildinfo, or else the first segment
// that is read and written, as debug/buildinfo looks; of a universal
// file, its first architecture's.
func machoData(r io.ReaderAt, ident [16]byte) (span, error) {
	switch binary.BigEndian.Uint32(ident[:]) {
	case 0xcafebabe, 0xcafebabf:
		return fatData(r, ident)
	}
	var bo binary.ByteOrder
	var is64 bool
	switch m := binary.LittleEndian.Uint32(ident[:]); m {
	case 0xfeedface, 0xfeedfacf:
		bo, is64 = binary.LittleEndian, m == 0xfeedfacf
	case 0xcefaedfe, 0xcffaedfe:
		bo, is64 = binary.BigEndian, m == 0xcffaedfe
	default:
		return span{}, errUnknown
	}
	var h [32]byte
	if _, err := readFull(r, h[:], 0); err != nil {
		return span{}, errUnknown
	}
	ncmds, size := bo.Uint32(h[16:]), bo.Uint32(h[20:])
	at := uint64(28)
	if is64 {
		at = 32
	}
	cmds, err := table(r, at, uint64(size), 1)
	if err != nil {
		return span{}, err
	}
	var seg span
	for range ncmds {
		if len(cmds) < 8 {
			break
		}
		cmd, n := bo.Uint32(cmds), uint64(bo.Uint32(cmds[4:]))
		if n < 8 || n > uint64(len(cmds)) {
			return span{}, errUnknown
		}
		if s, sec, ok := machoSegment(cmds[:n], bo, cmd); ok {
			if sec.size != 0 {
				return sec, nil
			}
			if seg.size == 0 {
				seg = s
			}
		}
		cmds = cmds[n:]
	}
	if seg.size == 0 {
		return span{}, errNotGo
	}
	return seg, nil
}

// machoSegment reads a segment command c: the segment when it is read
// and written, and its section __go_buildinfo.
func machoSegment(c []byte, bo binary.ByteOrder, cmd uint32) (seg, sec span, ok bool) {
	const segment, segment64, rw = 0x1, 0x19, 3
	var addr, off, filesz uint64
	var maxprot, initprot, nsects uint32
	var hdr, ent uint64
	switch {
	case cmd == segment && len(c) >= 56:
		addr, off, filesz = uint64(bo.Uint32(c[24:])), uint64(bo.Uint32(c[32:])), uint64(bo.Uint32(c[36:]))
		maxprot, initprot, nsects = bo.Uint32(c[40:]), bo.Uint32(c[44:]), bo.Uint32(c[48:])
		hdr, ent = 56, 68
	case cmd == segment64 && len(c) >= 72:
		addr, off, filesz = bo.Uint64(c[24:]), bo.Uint64(c[40:]), bo.Uint64(c[48:])
		maxprot, initprot, nsects = bo.Uint32(c[56:]), bo.Uint32(c[60:]), bo.Uint32(c[64:])
		hdr, ent = 72, 80
	default:
		return span{}, span{}, false
	}
	for i := range uint64(nsects) {
		s := c[min(hdr+i*ent, uint64(len(c))):]
		if uint64(len(s)) < ent {
			break
		}
		if bytes.Equal(bytes.TrimRight(s[:16], "\x00"), []byte("__go_buildinfo")) {
			if ent == 68 {
				return span{}, span{uint64(bo.Uint32(s[40:])), uint64(bo.Uint32(s[36:]))}, true
			}
			return span{}, span{uint64(bo.Uint32(s[48:])), bo.Uint64(s[40:])}, true
		}
	}
	if addr != 0 && filesz != 0 && maxprot == rw && initprot == rw {
		return span{off, filesz}, span{}, true
	}
	return span{}, span{}, false
}

// fatData is the data of a universal file's first architecture, which
// lies whole at its offset.
func fatData(r io.ReaderAt, ident [16]byte) (span, error) {
	if binary.BigEndian.Uint32(ident[4:]) == 0 {
		return span{}, errUnknown
	}
	var off, size uint64
	if binary.BigEndian.Uint32(ident[:]) == 0xcafebabe {
		var a [20]byte
		if _, err := readFull(r, a[:], 8); err != nil {
			return span{}, errUnknown
		}
		off, size = uint64(binary.BigEndian.Uint32(a[8:])), uint64(binary.BigEndian.Uint32(a[12:]))
	} else {
		var a [32]byte
		if _, err := readFull(r, a[:], 8); err != nil {
			return span{}, errUnknown
		}
		off, size = binary.BigEndian.Uint64(a[8:]), binary.BigEndian.Uint64(a[16:])
	}
	if off > 1<<62 || size > 1<<62 {
		return span{}, errUnknown
	}
	thin := io.NewSectionReader(r, int64(off), int64(size))
	var id [16]byte
	if _, err := readFull(thin, id[:], 0); err != nil {
		return span{}, errUnknown
	}
	switch binary.BigEndian.Uint32(id[:]) {
	case 0xcafebabe, 0xcafebabf:
		return span{}, errUnknown // no universal file inside another
	}
	s, err := machoData(thin, id)
	if err != nil {
		return span{}, err
	}
	if s.off > size || s.size > size-s.off {
		return span{}, errNotGo
	}
	return span{off + s.off, s.size}, nil
}
