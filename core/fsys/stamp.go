package fsys

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
