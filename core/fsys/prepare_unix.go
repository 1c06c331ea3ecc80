//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"io"
	"os"
	"time"

	"github.com/spf13/afero"
	"golang.org/x/sys/unix"
)

// Prepared is an update of one file done ahead of its lock (Prepare):
// the new bytes in a temporary file beside it, and the stamp of the file
// they were made from.
type Prepared struct {
	path string
	o    WriteOptions
	st   *Staged
	was  Stamp // the file read; Absent when there was none
	done bool  // committed or aborted
}

// Prepare is UpdateFileStream's work done without the file's lock, so
// that a batch makes the new file durable with its own files (SyncStaged
// of Staged) instead of an fsync of its own: the guarded walk, the read,
// and update's new bytes in a temporary file in the checked directory.
// CommitPrepared renames it in place under the lock when the file is
// still the one read. nil when it cannot be done ahead (the file changed
// a moment ago, update writes nothing or anything fails): the caller then
// runs UpdateFileStream, which says why as it always does.
func (s *Files) Prepare(target string, o WriteOptions, update func(old afero.File) (func(w io.Writer) error, error)) *Prepared {
	if s.writable("write", target) != nil || !s.onOS() {
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
	t.BeforeRename = s.BeforeRename
	st, err := t.StageFunc(fill, o.perm())
	if err != nil {
		return nil
	}
	p = &Prepared{path: target, o: o, st: st, was: was}
	return p
}

// Staged is the prepared file for SyncStaged.
func (p *Prepared) Staged() *Staged { return p.st }

// CommitPrepared takes the file's lock and renames the prepared file in
// place when the file is still the one Prepare read: the same folder by
// identity, the same stamp (git's rule: a stamp changes with the file,
// and one from within RacyWindow was refused). Otherwise, or when the
// rename fails (another writer under the lock took the temporary file
// for a killed writer's), it reports false with the temporary file
// removed, and the caller runs UpdateFileStream as if nothing had been
// prepared: that says what is wrong, as ever. The folder's rename is
// made durable after the lock is let go.
func (s *Files) CommitPrepared(p *Prepared) bool {
	t, unlock, err := s.lockTarget(p.path, s.writeWalk(p.o))
	if err != nil {
		p.Abort()
		return false
	}
	defer t.Close()
	pt := p.st.t
	same := !t.Missing && t.dev == pt.dev && t.ino == pt.ino && t.Name == pt.Name &&
		(p.o.ConfirmShared || s.guard().Sources()(p.path, t) == nil)
	if same {
		now, ok := nameStamp(t)
		same = ok && now == p.was
	}
	if !same {
		unlock()
		p.Abort()
		return false
	}
	p.done = true
	err = p.st.Commit() // on an error the temporary file is gone
	if err == nil {
		// Ours is in place: any other of the name is a killed writer's.
		t.RemoveStale()
	}
	unlock()
	pt.Close()
	if err != nil {
		return false
	}
	SyncDir(t)
	return true
}

// Abort removes the prepared file, unless committed.
func (p *Prepared) Abort() {
	if !p.done {
		p.done = true
		p.st.Abort()
		p.st.t.Close()
	}
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
