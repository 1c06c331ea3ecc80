package fsys

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"github.com/spf13/afero"
	"golang.org/x/sys/unix"
)

// DirWatch tells, with one read of an inotify descriptor, whether anything
// changed in the directories that resolving a set of paths goes through.
// The kernel queues an event before the system call that caused it
// returns, so a change made before a request started is always seen by
// that request: reads stay fresh without a stat per file. An ancestor
// directory matters only through the one entry a lookup uses, so events
// about its other entries (a busy home folder's) change nothing.
type DirWatch struct {
	mu  sync.Mutex
	fd  int
	gen uint64 // bumped whenever an event that matters was pending
	buf []byte
	// uses says, per watch descriptor, which entries matter; a nil set
	// means every entry (a directory whose whole content is watched).
	uses map[int32]map[string]bool
}

// watchEntry is a directory a lookup reads, and the entry it uses there
// ("": the directory's whole content).
type watchEntry struct{ dir, name string }

// What changes a directory's entries or an entry's content, mode or target.
const watchMask = unix.IN_ATTRIB | unix.IN_MODIFY | unix.IN_CLOSE_WRITE | unix.IN_CREATE |
	unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF

// NewDirWatch returns nil where inotify is not available or fs is not
// the real file system; the caches then stat their files instead.
func NewDirWatch(fs afero.Fs) *DirWatch {
	if _, ok := fs.(*afero.OsFs); !ok {
		return nil
	}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil
	}
	return &DirWatch{fd: fd, buf: make([]byte, 64<<10), uses: map[int32]map[string]bool{}}
}

// Generation drains the pending events and returns the generation: equal
// generations mean nothing watched that matters changed in between.
func (w *DirWatch) Generation() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		n, err := unix.Read(w.fd, w.buf)
		if n > 0 {
			if w.matters(w.buf[:n]) {
				w.gen++
			}
			continue
		}
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil && !errors.Is(err, unix.EAGAIN) {
			w.gen++ // a descriptor that fails vouches for nothing
		}
		return w.gen
	}
}

// matters tells whether any event in buf touches an entry some lookup
// uses. Whatever it cannot place counts: an overflowed queue, a removed
// watch, an event about the directory itself, a descriptor it never set.
func (w *DirWatch) matters(buf []byte) bool {
	for len(buf) >= unix.SizeofInotifyEvent {
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[0]))
		end := unix.SizeofInotifyEvent + int(ev.Len)
		if end > len(buf) {
			return true
		}
		name := strings.TrimRight(string(buf[unix.SizeofInotifyEvent:end]), "\x00")
		buf = buf[end:]
		if ev.Mask&(unix.IN_Q_OVERFLOW|unix.IN_IGNORED|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0 || name == "" {
			return true
		}
		names, ok := w.uses[ev.Wd]
		if !ok || names == nil || names[name] {
			return true
		}
	}
	return len(buf) != 0
}

// Add watches every directory that resolving each path visits, links
// followed, down to the path itself when it is a directory. Watches are
// kept for the life of the server. Every call adds them all again: the
// kernel keeps one watch per directory, and a directory replaced since the
// last call is a new one to watch. It reports false when some directory
// could not be watched.
func (w *DirWatch) Add(paths []string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range paths {
		ents, ok := visited(p)
		if !ok {
			return false
		}
		for _, e := range ents {
			// Watching through a link would watch its target under the
			// link's name; both ends are visited separately instead.
			wd, err := unix.InotifyAddWatch(w.fd, e.dir, watchMask|unix.IN_DONT_FOLLOW|unix.IN_ONLYDIR)
			if err != nil {
				return false
			}
			names, seen := w.uses[int32(wd)]
			switch {
			case e.name == "":
				w.uses[int32(wd)] = nil
			case !seen:
				w.uses[int32(wd)] = map[string]bool{e.name: true}
			case names != nil:
				names[e.name] = true
			}
		}
	}
	return true
}

// visited lists the directories that looking up p reads, each with the
// entry the lookup uses there, through every link on the way, and p itself
// (whole) when it is a directory. A change to any entry used, or to the
// content of the entry found, is an event in one of them. The walk stops
// at the first missing entry, whose creation is an event in its parent.
func visited(p string) ([]watchEntry, bool) {
	if !filepath.IsAbs(p) {
		return nil, false
	}
	var ents []watchEntry
	seen := map[watchEntry]bool{}
	visit := func(d, name string) {
		if e := (watchEntry{d, name}); !seen[e] {
			seen[e] = true
			ents = append(ents, e)
		}
	}
	todo := strings.Split(strings.TrimPrefix(filepath.Clean(p), "/"), "/")
	cur := "/"
	for hops := 0; len(todo) > 0; {
		name := todo[0]
		todo = todo[1:]
		if name == "" || name == "." {
			continue
		}
		if name == ".." {
			cur = filepath.Dir(cur)
			continue
		}
		visit(cur, name)
		next := filepath.Join(cur, name)
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) || errors.Is(err, unix.ENOTDIR) {
				return ents, true
			}
			return nil, false
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			if hops++; hops > MaxLinks {
				return nil, false // a loop: let stats decide
			}
			target, err := os.Readlink(next)
			if err != nil {
				return nil, false
			}
			if filepath.IsAbs(target) {
				cur = "/"
			}
			todo = append(strings.Split(target, "/"), todo...)
			continue
		}
		cur = next
		if len(todo) == 0 && fi.IsDir() {
			visit(cur, "")
		}
	}
	return ents, true
}

func (w *DirWatch) Close() {
	if w != nil {
		unix.Close(w.fd)
	}
}
