//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"io/fs"
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// A batch with StageNew makes a missing directory as a temporary name in
// its held parent (TempName, the pattern of charter's temporary files) and
// writes everything below it in place: nobody sees a half-made folder, and
// Publish renames each folder into place whole. It saves a temporary name
// and a rename per file, which is most of what a first projection costs.
// A folder a killed run left is removed, under the caller's lock, by the
// next batch that makes that name, whatever its age.

// stageBelow makes dir's last component under a temporary name in the
// held parent p, when the name is free there and the walk may create it;
// nil otherwise (below goes on as for any directory).
func (b *Batch) stageBelow(w *walker, p *Target, dir string) *Target {
	if !b.o.Create || w.hasBound && !p.bound { // never a directory outside the project
		return nil
	}
	name := base(dir)
	var st unix.Stat_t
	if err := unix.Fstatat(p.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != unix.ENOENT {
		return nil // there, or unknown: walked as it is
	}
	p.removeStaleDirs(name)
	var tmp string
	for range 16 {
		tmp = NewTempName(name)
		err := unix.Mkdirat(p.fd, tmp, uint32(b.o.DirMode.Perm()))
		if err == nil {
			break
		}
		if err != unix.EEXIST {
			return nil
		}
		tmp = ""
	}
	if tmp == "" {
		return nil
	}
	fd, err := unix.Openat(p.fd, tmp, dirFlags|unix.O_NOFOLLOW, 0)
	if err != nil {
		unix.Unlinkat(p.fd, tmp, unix.AT_REMOVEDIR)
		return nil
	}
	if err := w.push(fd, join(p.Dir, name)); err != nil {
		unix.Unlinkat(p.fd, tmp, unix.AT_REMOVEDIR)
		return nil
	}
	c := w.top()
	t := &Target{Path: dir, Dir: c.path, Shared: w.shared, IsDir: true, fd: c.fd, rfd: -1, dev: c.dev, ino: c.ino,
		inside: c.inside, bound: c.bound, chain: append(slices.Clip(p.chain), c.at), made: true, names: []string{},
		staged: tmp, parent: p}
	b.staged = append(b.staged, t)
	return t
}

// Publish renames each folder made under a temporary name into place. A
// name that appeared meanwhile is not replaced: that folder is removed,
// no further one is published, and the error says which.
func (b *Batch) Publish() error {
	var parents []*Target
	defer func() { syncPublished(parents) }()
	for i, t := range b.staged {
		err := b.pin(t.parent)
		if err == nil {
			err = b.publish(t)
			b.unpin(t.parent)
		}
		if err != nil {
			b.staged = b.staged[i:]
			if err, ok := err.(*ChangedError); ok {
				return err
			}
			if err == unix.EEXIST || err == unix.ENOTEMPTY {
				return &ChangedError{Path: t.Path, What: "appeared while charter wrote it"}
			}
			return &fs.PathError{Op: "write", Path: t.Path, Err: err}
		}
		t.staged = ""
		parents = append(parents, t.parent)
	}
	b.staged = nil
	return nil
}

// publish renames the staged folder t into place in its held parent.
// The staged name must still be the folder made there: one let go under
// a bound is not watched between staging and now.
func (b *Batch) publish(t *Target) error {
	var st unix.Stat_t
	if err := unix.Fstatat(t.parent.fd, t.staged, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil ||
		uint64(st.Dev) != t.dev || uint64(st.Ino) != t.ino {
		return &ChangedError{Path: t.Path, What: "was replaced before it was put in place"}
	}
	err := renameNoReplace(t.parent.fd, t.staged, base(t.Path))
	if err == errNoReplace {
		if unix.Fstatat(t.parent.fd, base(t.Path), &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
			err = unix.EEXIST
		} else {
			err = unix.Renameat(t.parent.fd, t.staged, t.parent.fd, base(t.Path))
		}
	}
	return err
}

// discard removes the staged folders never published.
func (b *Batch) discard() {
	for _, t := range b.staged {
		if t.staged != "" && b.pin(t.parent) == nil {
			removeTree(t.parent.fd, t.staged)
			b.unpin(t.parent)
		}
	}
	b.staged = nil
}

// removeStaleDirs removes the temporary folders of name in t that a killed
// run left: only under the caller's lock, like RemoveStale. Every batch
// that stages a folder holds that lock (the record's, core's Stager), so
// no live run's staged folder can be among them, however young; a user's
// folder is never of charter's pattern (TempOf).
func (t *Target) removeStaleDirs(name string) {
	names, err := t.listing()
	if err != nil {
		return
	}
	for _, n := range names {
		var st unix.Stat_t
		if isTempOf(n, name) && unix.Fstatat(t.fd, n, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
			removeTree(t.fd, n)
		}
	}
}

// removeTree removes the folder name in dirfd with the files and folders
// below it. Anything else there (a link someone put in) is no file charter
// wrote: it stays, and so do the folders that hold it.
func removeTree(dirfd int, name string) error {
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	d := os.NewFile(uintptr(fd), name)
	names, err := d.Readdirnames(-1)
	if err == nil {
		for _, n := range names {
			var st unix.Stat_t
			if unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
				continue
			}
			switch st.Mode & unix.S_IFMT {
			case unix.S_IFREG:
				unix.Unlinkat(fd, n, 0)
			case unix.S_IFDIR:
				removeTree(fd, n)
			}
		}
	}
	d.Close()
	return unix.Unlinkat(dirfd, name, unix.AT_REMOVEDIR)
}

// base is the last element of a clean absolute path.
func base(path string) string { return path[strings.LastIndexByte(path, '/')+1:] }
