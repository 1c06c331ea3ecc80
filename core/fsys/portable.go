package fsys

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// portableTarget is the walk for systems without openat and O_NOFOLLOW on
// every component (Windows). It is built from os.Lstat, os.Readlink and
// path text, and compiled everywhere so its rules are tested on Linux too.
//
// What it keeps: properties 1, 2 (identity through os.SameFile, which on
// Windows compares volume serial and file index), 4 and 5. What it cannot
// keep fully is 3: Write walks the path again with Lstat on each component
// immediately before it creates the temporary file, checks that the final
// directory is the one the first walk found (os.SameFile), and checks it
// once more right before the rename. A component swapped for a link after
// that last check and before the rename (a window of one system call) can
// still redirect the rename; no Windows API closes it short of opening
// every component by handle, which Go's standard library does not offer.
type portableTarget struct {
	Path    string
	Dir     string
	Name    string
	Shared  string
	Missing bool
	IsDir   bool

	BeforeRename func(tmp string)
	Written      func() // see the unix Target
	Volatile     bool   // no fsyncs (see the unix Target)
	DirSyncLater bool   // see the unix Target; here the folder is synced at once

	o       Options
	dirInfo fs.FileInfo // Dir as the walk found it
	chain   []Place     // the directories on the way and the file itself (Reaches)
	own     Place       // unused here: a batch target of the Unix walk
}

// Place is where the file itself is: Name in the directory the walk found.
func (t *portableTarget) Place() Place {
	if t.Missing || t.dirInfo == nil {
		return Place{}
	}
	return Place{Path: t.full(), Name: t.Name, info: t.dirInfo}
}

type pframe struct {
	path   string
	info   fs.FileInfo
	at     Place // this directory as an entry of its parent (not for a root)
	inside bool
	bound  bool // the boundary or below it (boundary.go)
}

// isLinkish: a symbolic link, or a Windows reparse point (junction, mount
// point) that Go reports as irregular.
func isLinkish(fi fs.FileInfo) bool {
	return fi.Mode()&fs.ModeSymlink != 0 || fi.Mode()&fs.ModeIrregular != 0
}

func portableWalk(path string, o Options) (*portableTarget, error) {
	if !filepath.IsAbs(path) {
		return nil, &NotAbsError{Path: path}
	}
	path = filepath.Clean(path)
	var home fs.FileInfo
	if o.Home != "" {
		if fi, err := os.Stat(o.Home); err == nil && fi.IsDir() {
			home = fi
		}
	}
	var bound fs.FileInfo
	if o.Boundary != "" {
		fi, err := os.Stat(o.Boundary)
		if err != nil || !fi.IsDir() {
			return nil, &fs.PathError{Op: "find project", Path: o.Boundary, Err: fs.ErrNotExist}
		}
		bound = fi
	}
	var stack []pframe
	chain := func(top pframe, name string) []Place {
		out := make([]Place, 0, len(stack))
		for _, f := range stack[1:] {
			out = append(out, f.at)
		}
		if name != "" {
			out = append(out, Place{Path: filepath.Join(top.path, name), Name: name, info: top.info})
		}
		return out
	}
	isBound := func(fi fs.FileInfo) bool { return bound != nil && os.SameFile(fi, bound) }
	confined := func(inside bool, link string) error {
		if bound == nil || inside {
			return nil
		}
		return &OutsideError{Path: path, Link: link, Root: o.Boundary}
	}
	shared, outLink, links, boundAt := "", "", 0, ""
	setRoot := func(p string) error {
		root := filepath.VolumeName(p) + string(filepath.Separator)
		fi, err := os.Stat(root)
		if err != nil {
			return err
		}
		stack = []pframe{{path: root, info: fi, inside: home != nil && os.SameFile(fi, home), bound: isBound(fi)}}
		return nil
	}
	if err := setRoot(path); err != nil {
		return nil, err
	}
	queue := userComps(path)
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		last := len(queue) == 0
		top := stack[len(stack)-1]
		if c.name == ".." {
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		p := filepath.Join(top.path, c.name)
		if bound != nil && isBound(top.info) && isGitName(c.name) {
			return nil, &GitDirError{Path: path, Link: outLink, Git: p}
		}
		if bound != nil && isBound(top.info) && boundAt == "" {
			boundAt = top.path
		}
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) && !last && o.Create && (bound == nil || top.bound) && !(o.StrictLinks && outLink != "") && c.shown != "" {
			if err := os.Mkdir(p, o.DirMode.Perm()); err != nil && !errors.Is(err, fs.ErrExist) {
				return nil, err
			}
			fi, err = os.Lstat(p)
		}
		switch {
		case errors.Is(err, fs.ErrNotExist) && last:
			if err := confined(top.bound, outLink); err != nil {
				return nil, err
			}
			if err := o.linked(path, outLink, boundAt, p); err != nil {
				return nil, err
			}
			return &portableTarget{Path: path, Dir: top.path, Name: c.name, Shared: shared, o: o, dirInfo: top.info, chain: chain(top, c.name)}, nil
		case errors.Is(err, fs.ErrNotExist):
			if bound != nil {
				flags := make([]bool, len(stack))
				for i, f := range stack {
					flags[i] = f.bound
				}
				if err := confined(!escapes(flags, append([]comp{c}, queue...)), outLink); err != nil {
					return nil, err
				}
			}
			names := []string{top.path, c.name}
			for _, r := range queue {
				names = append(names, r.name)
			}
			full := filepath.Join(names...)
			if err := o.linked(path, outLink, boundAt, full); err != nil {
				return nil, err
			}
			return &portableTarget{Path: path, Dir: filepath.Dir(full), Name: filepath.Base(full), Shared: shared, Missing: true, o: o, chain: chain(top, c.name)}, nil
		case err != nil:
			return nil, err
		case isLinkish(fi):
			shown := c.shown
			if shown == "" {
				shown = p
			}
			if top.inside {
				if !o.Confirmed {
					return nil, &BlockedError{Link: shown}
				}
				if shared == "" {
					shared = shown
				}
			}
			if top.bound && outLink == "" {
				outLink = shown
			}
			if links++; links > MaxLinks {
				return nil, &LinkLoopError{Path: path}
			}
			text, err := os.Readlink(p)
			if err != nil {
				return nil, err
			}
			if filepath.IsAbs(text) {
				if err := setRoot(text); err != nil {
					return nil, err
				}
				text = text[len(filepath.VolumeName(text)):]
			}
			queue = append(linkComps(text), queue...)
			continue
		case last:
			if err := confined(top.bound, outLink); err != nil {
				return nil, err
			}
			if err := o.linked(path, outLink, boundAt, p); err != nil {
				return nil, err
			}
			return &portableTarget{Path: path, Dir: top.path, Name: c.name, Shared: shared, IsDir: fi.IsDir(), o: o, dirInfo: top.info, chain: chain(top, c.name)}, nil
		case !fi.IsDir():
			return nil, &NotDirError{Path: p}
		}
		stack = append(stack, pframe{path: p, info: fi, at: Place{Path: p, Name: c.name, info: top.info}, inside: top.inside || (home != nil && os.SameFile(fi, home)), bound: top.bound || isBound(fi)})
	}
	top := stack[len(stack)-1]
	if err := confined(top.bound, outLink); err != nil {
		return nil, err
	}
	return &portableTarget{Path: path, Dir: filepath.Dir(top.path), Name: filepath.Base(top.path), Shared: shared, IsDir: true, o: o, chain: chain(top, "")}, nil
}

func (t *portableTarget) Close() error { return nil }

func (t *portableTarget) full() string { return filepath.Join(t.Dir, t.Name) }

// recheck walks the path again, as late as possible, and makes sure it
// still ends in the directory this target was checked in.
func (t *portableTarget) recheck() error {
	again, err := portableWalk(t.Path, t.o)
	if err != nil {
		return err
	}
	if again.Missing || again.Dir != t.Dir || again.Name != t.Name || t.dirInfo == nil {
		return &ChangedError{Path: t.Path, What: "changed on the way"}
	}
	fi, err := os.Stat(t.Dir)
	if err != nil || !os.SameFile(fi, t.dirInfo) {
		return &ChangedError{Path: t.Path, What: "changed on the way"}
	}
	return nil
}

func (t *portableTarget) Write(data []byte, p Perm) error {
	return t.WriteParts([][]byte{data}, p)
}

// WriteParts is Write of the parts one after the other: a large file
// edited in the middle is written from its pieces, never joined in memory.
func (t *portableTarget) WriteParts(parts [][]byte, p Perm) error {
	return t.WriteFunc(func(w io.Writer) error { return writeParts(w, parts) }, p)
}

// WriteFunc is Write of whatever fill writes to the temporary file.
func (t *portableTarget) WriteFunc(fill func(w io.Writer) error, p Perm) error {
	if t.IsDir {
		return &IsDirError{Path: t.Path}
	}
	if t.Missing {
		return &fs.PathError{Op: "write", Path: t.Path, Err: fs.ErrNotExist}
	}
	if err := t.recheck(); err != nil {
		return err
	}
	fi, err := os.Lstat(t.full())
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	var old fs.FileMode
	if exists {
		switch {
		case isLinkish(fi):
			return &ChangedError{Path: t.Path, What: "became a link"}
		case fi.IsDir():
			return &IsDirError{Path: t.Path}
		case !fi.Mode().IsRegular():
			return &NotRegularError{Path: t.Path}
		case fi.Mode().Perm()&0o200 == 0:
			return &ReadOnlyError{Path: t.Path, Mode: fi.Mode().Perm()}
		}
		old = fi.Mode().Perm()
	}
	mode, _ := p.mode(old, exists)
	f, err := os.CreateTemp(t.Dir, tempPrefix(t.Name)+"*")
	if err != nil {
		return fmt.Errorf("write %s: %w", t.Path, err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", t.Path, err)
	}
	if err := fill(f); err != nil {
		return fail(err)
	}
	if t.Written != nil {
		t.Written()
	}
	if !t.Volatile {
		if err := f.Sync(); err != nil {
			return fail(err)
		}
	}
	if err := f.Close(); err != nil {
		return fail(err)
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return fail(err)
	}
	if t.BeforeRename != nil {
		t.BeforeRename(tmp)
	}
	if err := t.recheck(); err != nil {
		os.Remove(tmp)
		return err
	}
	if fi, err := os.Lstat(t.full()); err == nil && !fi.Mode().IsRegular() {
		os.Remove(tmp)
		return &ChangedError{Path: t.Path, What: "stopped being a regular file"}
	}
	if err := os.Rename(tmp, t.full()); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", t.Path, err)
	}
	if d, err := os.Open(t.Dir); err == nil && !t.Volatile { // Windows cannot sync a directory
		d.Sync()
		d.Close()
	}
	return nil
}

func (t *portableTarget) RemoveStale() (int, error) { return t.removeTemps(time.Time{}) }

func (t *portableTarget) RemoveStaleBefore(cutoff time.Time) (int, error) {
	if cutoff.IsZero() {
		return 0, nil
	}
	return t.removeTemps(cutoff)
}

func (t *portableTarget) removeTemps(cutoff time.Time) (int, error) {
	if t.Missing || t.IsDir {
		return 0, nil
	}
	entries, err := os.ReadDir(t.Dir)
	if err != nil {
		return 0, fmt.Errorf("list %s: %w", t.Dir, err)
	}
	n := 0
	for _, e := range entries {
		if !isTempOf(e.Name(), t.Name) || !e.Type().IsRegular() {
			continue
		}
		if !cutoff.IsZero() {
			fi, err := e.Info()
			if err != nil || !fi.ModTime().Before(cutoff) {
				continue
			}
		}
		if os.Remove(filepath.Join(t.Dir, e.Name())) == nil {
			n++
		}
	}
	return n, nil
}

// lockKeys: without a portable (dev, ino), the physical path alone.
func (t *portableTarget) lockKeys() []string { return []string{textKey(t.Dir, t.Name)} }

func (t *portableTarget) lockDir() (func(), error) { return func() {}, nil }
