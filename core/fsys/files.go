package fsys

import (
	"sync"
	"time"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/errcode"
)

// Files is the guarded file layer over one file system: reads capped by
// kind, writes that walk without following links in the companion tree,
// lock, and replace atomically, and the confined reads of a project. What
// only the domain knows (where the companion tree is, which sources are
// shared, the run's config root, how to explain a refusal) it asks its
// Guard.
type Files struct {
	Fs    afero.Fs
	Paths PathStyle
	Now   func() time.Time
	// Guard is what the domain decides for a write; nil guards nothing
	// beyond the file system's own rules.
	Guard Guard
	// BeforeRename lets tests interrupt a write.
	BeforeRename func(tmp string)

	once  sync.Once
	mem   *lockTable // in-process locks for file systems without flock
	flock *Locks     // lock files and in-process mutexes on the real file system
	held  *heldSet   // folders the walks start from, shared with Derive's copies
}

// Guard is what the domain tells the file layer about a write.
type Guard interface {
	// Home is the companion home: a link inside its tree blocks a write
	// until confirmed. "" when there is none.
	Home() string
	// Blocked is the refusal of a write to target stopped at link, a link
	// inside the companion tree.
	Blocked(target, link string) error
	// Sources is the check of the shared sources, read once: the refusal
	// (a SharedError) of a write to target, walked to t, that reaches one;
	// nil when it reaches none.
	Sources() func(target string, t *Target) error
	// ConfigRoot is the run's config root, where lock files live; "" when
	// it cannot be resolved.
	ConfigRoot() string
	// NotWritable explains a permission refusal of a write in the user's
	// words; other errors come back as they are.
	NotWritable(target string, err error) error
}

// NewFiles is the layer over afs.
func NewFiles(afs afero.Fs, paths PathStyle, now func() time.Time, g Guard) *Files {
	return &Files{Fs: afs, Paths: paths, Now: now, Guard: g}
}

// Derive is a copy of f over afs with guard g that shares f's locks, so
// two views of one system still keep each other's writers apart.
func (f *Files) Derive(afs afero.Fs, g Guard) *Files {
	f.init()
	return &Files{Fs: afs, Paths: f.Paths, Now: f.Now, Guard: g, BeforeRename: f.BeforeRename, mem: f.mem, flock: f.flock, held: f.held}
}

func (f *Files) init() {
	f.once.Do(func() {
		if f.mem == nil {
			f.mem = &lockTable{m: map[string]*sync.Mutex{}}
		}
		if f.flock == nil {
			f.flock = NewLocks()
		}
		if f.held == nil {
			f.held = &heldSet{}
		}
	})
}

func (f *Files) lockTable() *lockTable { f.init(); return f.mem }

func (f *Files) fsLocks() *Locks { f.init(); return f.flock }

func (f *Files) heldSet() *heldSet { f.init(); return f.held }

// Hold lets the walks on the operating system's file system keep the
// folders they open (a handful, bounded; see heldSet) and start from them,
// until the returned func is called: for a run of many walks in one
// project (an apply). Without it every walk starts from "/". Holds may
// overlap (a server's runs); the last one done lets the folders go.
func (f *Files) Hold() (done func()) {
	h := f.heldSet()
	h.hold()
	return sync.OnceFunc(h.done)
}

func (f *Files) guard() Guard {
	if f.Guard == nil {
		return noGuard{}
	}
	return f.Guard
}

// noGuard protects no companion tree and explains nothing.
type noGuard struct{}

func (noGuard) Home() string                      { return "" }
func (noGuard) Blocked(target, link string) error { return &BlockedError{Link: link} }
func (noGuard) Sources() func(string, *Target) error {
	return func(string, *Target) error { return nil }
}
func (noGuard) ConfigRoot() string                    { return "" }
func (noGuard) NotWritable(_ string, err error) error { return err }

// NotSupportedError: projecting files needs the operating system's file
// system (a write through a layer that cannot stage).
type NotSupportedError struct{ Path string }

func (e *NotSupportedError) Error() string {
	if e.Path == "" {
		return "projecting files needs the operating system's file system"
	}
	return e.Path + ": projecting files needs the operating system's file system"
}

// Code is errcode.NotSupported.
func (e *NotSupportedError) Code() string { return errcode.NotSupported }
