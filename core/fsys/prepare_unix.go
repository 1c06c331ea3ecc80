//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/spf13/afero"
	"golang.org/x/sys/unix"
)

// Prepared is an update of one file done ahead of its lock (Prepare):
// the new bytes in a temporary file beside it, and the stamp of the file
// they were made from. It holds the folder it was written in, so that
// the file can be removed there whatever happens to its path.
type Prepared struct {
	path   string
	o      WriteOptions
	dir    *Target // the folder it was written in, held
	tmp    string
	was    Stamp   // the file read; Absent when there was none
	synced bool    // its bytes made durable (SyncStagedWith)
	done   bool    // committed or removed
	t      *Target // committed: its folder, held until SyncPrepared
}

// Prepare is UpdateFileStream's work done without the file's lock, so
// that a batch makes the new file durable with its own files
// (SyncStagedWith) instead of an fsync of its own: the guarded walk, the
// read, and update's new bytes in a temporary file in the checked
// directory. CommitPrepared renames it in place under the lock when the
// file is still the one read. nil when it cannot be done ahead (the file
// changed a moment ago, update writes nothing or anything fails): the
// caller then runs UpdateFileStream, which says why as it always does.
func (s *Files) Prepare(target string, o WriteOptions, update func(old afero.File) (func(w io.Writer) error, error)) *Prepared {
	if s.writable("write", target) != nil || !s.onOS() || !roomToPrepare() {
		return nil
	}
	opts := s.writeWalk(o)
	t, err := Walk(target, opts)
	if err != nil {
		return nil
	}
	var p *Prepared
	defer func() {
		if p == nil {
			t.Close()
		}
	}()
	if t.IsDir || !o.ConfirmShared && s.guard().Sources()(target, t) != nil {
		return nil
	}
	was := Stamp{Mode: modeAbsent}
	var old afero.File
	if !t.Missing {
		taken := time.Now()
		f, err := t.Open(o.Kind)
		if err != nil {
			return nil
		}
		if f != nil {
			defer f.Close()
			var ok bool
			// The stamp of the very file read: its name may lead elsewhere
			// by the time it is stamped again.
			if was, ok = fileStamp(f); !ok || was.Racy(taken) {
				return nil
			}
			old = Capped(f, target, o.Kind)
		}
	}
	fill, err := update(old)
	if err != nil || fill == nil {
		return nil
	}
	if t.Missing {
		// Its folders are made now, as UpdateFileStream makes them once
		// there is something to write.
		opts.Create, opts.DirMode = true, o.dirMode()
		w, err := Walk(target, opts)
		if err != nil {
			return nil
		}
		t.Close()
		if t = w; t.Missing || t.IsDir {
			return nil
		}
	}
	tmp, f, err := t.fillTemp(fill, o.perm())
	if err != nil {
		return nil
	}
	if err := f.Close(); err != nil {
		unix.Unlinkat(t.fd, tmp, 0)
		return nil
	}
	p = &Prepared{path: target, o: o, dir: t, tmp: tmp, was: was}
	return p
}

// roomToPrepare: a prepared file holds its folder open until committed,
// which a process allowed few descriptors (`ulimit -n 32`) cannot spare
// beside a batch's (maxHeldWriting); such a run writes as before.
func roomToPrepare() bool {
	room.once.Do(func() {
		var l unix.Rlimit
		room.ok = unix.Getrlimit(unix.RLIMIT_NOFILE, &l) == nil && l.Cur >= 256
	})
	return room.ok
}

// room is roomToPrepare's answer, asked once (no initialisation at start).
var room struct {
	once sync.Once
	ok   bool
}

// SyncStagedWith is SyncStaged of ss, which also makes the prepared files
// on the same file systems durable where it syncs a whole file system
// (syncfs); a prepared file it does not reach is synced by its commit.
func SyncStagedWith(ss []*Staged, ps []*Prepared) error {
	whole, err := syncStaged(ss)
	if err != nil || !whole {
		return err
	}
	for _, p := range ps {
		for _, st := range ss {
			if st.dev == p.dir.dev {
				p.synced = true
				break
			}
		}
	}
	return nil
}

// CommitPrepared takes the file's lock and renames the prepared file in
// place when the file is still the one Prepare read: the same folder by
// identity, the same stamp (git's rule: a stamp changes with the file,
// and one from within RacyWindow was refused). Otherwise, or when the
// rename fails (another writer under the lock took the temporary file
// for a killed writer's), it reports false with the temporary file
// removed, and the caller runs UpdateFileStream as if nothing had been
// prepared: that says what is wrong, as ever. SyncPrepared makes the
// rename durable, after the lock is let go.
func (s *Files) CommitPrepared(p *Prepared) bool {
	if p.done {
		return false
	}
	t, unlock, err := s.lockTarget(p.path, s.writeWalk(p.o))
	if err != nil {
		p.Abort()
		return false
	}
	d := p.dir
	same := !t.Missing && t.dev == d.dev && t.ino == d.ino && t.Name == d.Name &&
		(p.o.ConfirmShared || s.guard().Sources()(p.path, t) == nil)
	if same {
		now, ok := nameStamp(t)
		same = ok && now == p.was
	}
	st := &Staged{t: d, tmp: p.tmp, fd: -1, dev: d.dev}
	if same && !p.synced {
		same = st.fsync() == nil
	}
	if !same {
		unlock()
		t.Close()
		p.Abort()
		return false
	}
	p.done = true
	d.BeforeRename = s.BeforeRename
	err = st.Commit() // on an error the temporary file is gone
	if err == nil {
		// Ours is in place: any other of the name is a killed writer's.
		t.RemoveStale()
	}
	unlock()
	t.Close()
	if err != nil {
		d.Close()
		return false
	}
	p.t = d
	return true
}

// SyncPrepared makes the renames of the committed files durable at once
// (SyncDirs: on Linux one syncfs per file system, each folder's fsync
// elsewhere) and lets go of their folders.
func SyncPrepared(ps []*Prepared) {
	var ts []*Target
	for _, p := range ps {
		if p.t != nil {
			ts = append(ts, p.t)
		}
	}
	SyncDirs(ts)
	for _, p := range ps {
		if p.t != nil {
			p.t.Close()
			p.t = nil
		}
	}
}

// Abort removes the prepared file, unless committed, from the folder it
// was written in; a committed one's folder is let go, not synced.
func (p *Prepared) Abort() {
	if p.t != nil {
		p.t.Close()
		p.t = nil
	}
	if p.done {
		return
	}
	p.done = true
	unix.Unlinkat(p.dir.fd, p.tmp, 0)
	p.dir.Close()
}

// fileStamp is the stamp of an open file.
func fileStamp(f *os.File) (Stamp, bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return Stamp{}, false
	}
	var st unix.Stat_t
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = unix.Fstat(int(fd), &st) }); err != nil || serr != nil {
		return Stamp{}, false
	}
	return stampOf(&st), true
}

// nameStamp is the stamp of what t's name is now, Absent for nothing.
func nameStamp(t *Target) (Stamp, bool) {
	var st unix.Stat_t
	switch err := unix.Fstatat(t.fd, t.Name, &st, unix.AT_SYMLINK_NOFOLLOW); err {
	case nil:
		return stampOf(&st), true
	case unix.ENOENT:
		return Stamp{Mode: modeAbsent}, true
	}
	return Stamp{}, false
}
