package fsys

import (
	"strconv"
	"time"
)

// Stamp is what the kernel says of a file without reading it, as git's
// index keeps it: a file whose stamp is unchanged since its bytes were
// known still holds them, unless it changed within the same clock tick
// (a racy stamp, which the caller re-reads).
type Stamp struct {
	Dev, Ino     uint64
	Size         int64
	Mode         uint32
	Mtime, Ctime int64 // nanoseconds since the epoch
}

// RacyWindow is how recent a change may be and still be trusted to show
// in a stamp: several ticks of the kernel's coarse file clock. A change
// within it may be followed by another in the same tick that leaves the
// stamp as it was.
const RacyWindow = 20 * time.Millisecond

// The type bits of Mode, the same on every Unix; modeAbsent is no type
// at all: the stamp of a path where nothing is.
const (
	modeType   = 0o170000
	modeDir    = 0o040000
	modeFile   = 0o100000
	modeLink   = 0o120000
	modeAbsent = 1<<32 - 1
)

// Type is the stamp with only its file type kept: what a caller that
// watches whether a path is a file, a folder or nothing compares.
func (s Stamp) Type() Stamp {
	if s.Absent() {
		return s
	}
	return Stamp{Mode: s.Mode & modeType}
}

// Absent reports a path where nothing was (Lstamp's missing).
func (s Stamp) Absent() bool { return s.Mode == modeAbsent }

// modeAbsent has every type bit set, which no file type has.
func (s Stamp) IsDir() bool  { return s.Mode&modeType == modeDir }
func (s Stamp) IsFile() bool { return s.Mode&modeType == modeFile }
func (s Stamp) IsLink() bool { return s.Mode&modeType == modeLink }

// ChangedSince reports whether the file's data or inode changed at or
// after ns (nanoseconds since the epoch).
func (s Stamp) ChangedSince(ns int64) bool { return s.Mtime >= ns || s.Ctime >= ns }

// Racy reports whether s changed within RacyWindow before taken, the
// time it was stamped: such a stamp does not vouch for the file later.
func (s Stamp) Racy(taken time.Time) bool { return s.ChangedSince(taken.Add(-RacyWindow).UnixNano()) }

// AppendStamp appends " dev ino size mode mtime ctime" to b, the way the
// caches write a stamp.
func AppendStamp(b []byte, s Stamp) []byte {
	for _, v := range [6]int64{int64(s.Dev), int64(s.Ino), s.Size, int64(s.Mode), s.Mtime, s.Ctime} {
		b = strconv.AppendInt(append(b, ' '), v, 10)
	}
	return b
}
