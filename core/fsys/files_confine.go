package fsys

import (
	"errors"
	"io"
	"io/fs"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/afero"
)

// A cloned repository is input, not configuration charter owns: the paths
// it decides (the project's agent files, its settings files, the coverage
// report) must resolve inside the project. The walk decides it on the
// directory handles it holds (Options.Boundary); these are its entry
// points for checks and reads, WriteOptions.Within for writes.

// Confine reports, with code outside_project, when path does not resolve
// inside the project root (a link on the way leads out of it); nil when it
// does, or when root is "". It reads and writes nothing: callers use it to
// refuse before work that would go to waste (an editor session, a plan).
func (s *Files) Confine(root, path string) error {
	if root == "" || !s.onOS() {
		return nil
	}
	t, err := Walk(path, s.within(root))
	if err != nil {
		return err
	}
	return t.Close()
}

// Preflight finds, before anything is written, what a write of path with
// o would refuse: the walk's own refusals (a link out of or inside the
// project, the git folder) and the target's (a dangling link, a read-only
// or irregular file, a folder charter may not write in). An apply asks it
// of every target first, so that one refusal writes nothing (SPEC §16).
func (s *Files) Preflight(path string, o WriteOptions) error {
	if !s.onOS() {
		return nil
	}
	opts := s.writeWalk(o)
	opts.Confirmed = true // the shared-link verdict is asked for apart
	t, err := Walk(path, opts)
	if err != nil {
		return s.walkError(path, err)
	}
	defer t.Close()
	return s.guard().NotWritable(path, t.Preflight())
}

// OpenWithin is OpenFile (a regular file, opened without blocking, held
// to k's cap) for a path a repository chose: it must resolve inside the
// project root, or it is refused (code outside_project); a missing file is
// fs.ErrNotExist. The file opened is the one the walk checked: it is
// opened in the directory handle the walk holds, without following a
// link. root "" is OpenFile itself.
func (s *Files) OpenWithin(root, path string, k Kind) (afero.File, error) {
	if root == "" || !s.onOS() {
		return s.OpenFile(path, k)
	}
	t, err := Walk(path, s.within(root))
	if err != nil {
		return nil, err
	}
	defer t.Close()
	f, err := t.Open(k)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: syscall.ENOENT} // as os.Open says it
	}
	return Capped(f, path, k), nil
}

// ReadWithin is ReadOptional (nil for a missing file) for a path a
// repository chose, read only inside the project root (OpenWithin).
func (s *Files) ReadWithin(root, path string, k Kind) ([]byte, error) {
	if root == "" {
		return s.ReadOptional(path, k)
	}
	data, err := s.readWithin(root, path, k)
	switch {
	case IsAbsent(err):
		return nil, nil
	case err != nil:
		return nil, ReadError(path, err)
	}
	return data, nil
}

// readWithin reads the file OpenWithin would open, with the same checks,
// through the walk's Target: a raw descriptor read whole, not an os.File,
// whose first open on a run sets up Go's poller (three syscalls and a
// thread's wake-up for a file that is never polled).
func (s *Files) readWithin(root, path string, k Kind) ([]byte, error) {
	if !s.onOS() {
		f, err := s.OpenFile(path, k)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return ReadAll(f, path, k)
	}
	if data, ok, err := s.readBeneath(root, path, k); ok {
		return data, err
	}
	return s.readWalked(root, path, k)
}

// readWalked is readWithin by the walk alone.
func (s *Files) readWalked(root, path string, k Kind) ([]byte, error) {
	t, err := Walk(path, s.within(root))
	if err != nil {
		return nil, err
	}
	defer t.Close()
	return t.Read(k) // nil, nil when missing
}

// ListWithin returns a folder's entries, sorted, not following links in
// them: nil when it does not exist, and notDir when the name is not a
// folder. The folder must resolve inside root (Confine).
func (s *Files) ListWithin(root, dir string) (entries []fs.FileInfo, notDir bool, err error) {
	if err := s.Confine(root, s.Paths.Join(dir, ".probe")); err != nil {
		return nil, false, err
	}
	return s.listDir(root, dir, 0)
}

// listDir is ListWithin after its confinement check. With max > 0 it
// reads at most max+1 entries, unsorted once there are more than max: a
// caller with a cap learns the folder is over it without holding a
// listing of a million names.
func (s *Files) listDir(root, dir string, max int) (entries []fs.FileInfo, notDir bool, err error) {
	fi, err := s.Fs.Stat(dir)
	switch {
	case IsAbsent(err):
		return nil, false, nil
	case err != nil:
		return nil, false, ReadError(dir, err)
	case !fi.IsDir():
		return nil, true, nil
	}
	if max <= 0 {
		entries, err = afero.ReadDir(s.Fs, dir)
	} else {
		var f afero.File
		if f, err = s.Fs.Open(dir); err == nil {
			entries, err = readDirMax(f, max+1)
			f.Close()
		}
	}
	if err != nil {
		return nil, false, ReadError(dir, err)
	}
	return entries, false, nil
}

// readDirMax is afero.ReadDir of at most n entries of the open folder f
// (all of them, sorted, for n <= 0).
func readDirMax(f afero.File, n int) ([]fs.FileInfo, error) {
	if n <= 0 {
		entries, err := f.Readdir(-1)
		if err != nil {
			return nil, err
		}
		slices.SortFunc(entries, func(a, b fs.FileInfo) int { return strings.Compare(a.Name(), b.Name()) })
		return entries, nil
	}
	var entries []fs.FileInfo
	for len(entries) < n {
		batch, err := f.Readdir(n - len(entries))
		entries = append(entries, batch...)
		if errors.Is(err, io.EOF) || (err == nil && len(batch) == 0) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(entries) < n {
		slices.SortFunc(entries, func(a, b fs.FileInfo) int { return strings.Compare(a.Name(), b.Name()) })
	}
	return entries, nil
}
